//! The process's allocator: the system's for small blocks, large blocks
//! mapped on their own and backed by huge pages where the kernel offers
//! them.
//!
//! A 12 MP photo's job makes a few buffers of megabytes (its luma, the page
//! search's images, the answer's canvas) and touches each for the first
//! time once. Each first touch of a 4 KB page is a fault that the kernel
//! serves on its own: about 19,000 a photo, a fifth of the job's time on
//! one core. Linux backs a range the program has advised (`MADV_HUGEPAGE`;
//! transparent huge pages in their usual `madvise` mode) with 2 MB pages,
//! one fault each; only whole, aligned huge pages can be, so a large block
//! is mapped aligned and rounded up to whole huge pages. The advice
//! changes no byte of memory: where the kernel ignores it, a large block is
//! an ordinary mapping, as the system allocator makes for blocks this
//! large.

use std::alloc::{GlobalAlloc, Layout, System};

/// A huge page on x86-64 and on aarch64 with 4 KB pages.
const HUGE_PAGE: usize = 2 << 20;

/// Blocks of this size and more are mapped on their own, rounded up to
/// whole huge pages and aligned to one, so that all of each can be backed
/// by huge pages (at most half a huge page of a block's pages unused).
const MAPPED: usize = HUGE_PAGE / 2;

/// [`System`] for small blocks; blocks of [`MAPPED`] bytes and more mapped
/// on their own and advised to be backed by huge pages.
pub struct HugePages;

/// The heap's memory a glibc process keeps after freeing, rather than give
/// it back: a batch's next photo makes its small blocks in it again without
/// faults.
const KEPT_FREE: usize = 4 * HUGE_PAGE;

/// Sets glibc's heap to go with [`HugePages`]: blocks under [`MAPPED`] from
/// the heap (glibc would map some of them on their own and raise that bound
/// as the blocks it maps are freed), and [`KEPT_FREE`] of the heap's free
/// memory kept. Called once, first thing in `main`.
pub fn tune_heap() {
    // SAFETY: mallopt only sets the allocator's parameters; before any
    // thread is started, as glibc asks.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, MAPPED as libc::c_int);
        libc::mallopt(libc::M_TRIM_THRESHOLD, KEPT_FREE as libc::c_int);
    }
}

/// The length a large block of `size` bytes is mapped with.
fn mapped_len(size: usize) -> usize {
    size.next_multiple_of(HUGE_PAGE)
}

/// True when a block of `layout` is mapped on its own. Alignments above a
/// huge page (never asked for here) stay with the system allocator.
fn is_mapped(layout: Layout) -> bool {
    layout.size() >= MAPPED
        && layout.align() <= HUGE_PAGE
        && layout.size() <= isize::MAX as usize / 2
}

/// Maps `len` bytes (a multiple of [`HUGE_PAGE`]) aligned to a huge page,
/// zeroed, advised to be backed by huge pages; null when the system has no
/// room.
fn map(len: usize) -> *mut u8 {
    // One huge page more than asked, so that an aligned start lies inside;
    // the ends around it are given back.
    let over = len + HUGE_PAGE;
    // SAFETY: an anonymous private mapping at a place the kernel picks
    // touches no existing memory.
    let raw = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            over,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
            -1,
            0,
        )
    };
    if raw == libc::MAP_FAILED {
        return std::ptr::null_mut();
    }
    let raw = raw as usize;
    let start = raw.next_multiple_of(HUGE_PAGE);
    // SAFETY: both ranges are parts of the mapping just made, outside the
    // aligned block that is handed out.
    unsafe {
        if start > raw {
            libc::munmap(raw as *mut libc::c_void, start - raw);
        }
        let tail = raw + over - (start + len);
        if tail > 0 {
            libc::munmap((start + len) as *mut libc::c_void, tail);
        }
        // Advice only: its failure changes nothing.
        libc::madvise(start as *mut libc::c_void, len, libc::MADV_HUGEPAGE);
    }
    start as *mut u8
}

/// The smallest page Linux maps: every mapping is aligned to it.
const MIN_PAGE: usize = 4096;

/// The mapping of `old_len` bytes at `ptr` made `new_len` long (moved when
/// it must be), its bytes kept; null when the system has no room. The
/// kernel moves the pages rather than copy them, and a growing block never
/// holds its old and new mappings at once, which a child with a limit on
/// its address space (a page render) has no room for.
fn remap(ptr: *mut u8, old_len: usize, new_len: usize) -> *mut u8 {
    // SAFETY: `ptr` is a mapping of `old_len` bytes made by `map` (or by
    // this), which nothing else refers to once it moves.
    let moved = unsafe { libc::mremap(ptr.cast(), old_len, new_len, libc::MREMAP_MAYMOVE) };
    if moved == libc::MAP_FAILED {
        return std::ptr::null_mut();
    }
    // SAFETY: the range is the mapping just made; advice only.
    unsafe { libc::madvise(moved, new_len, libc::MADV_HUGEPAGE) };
    moved.cast()
}

// SAFETY: small blocks come from `System` and go back to it with the same
// layout; large ones are mappings of `mapped_len` of their size, made by
// `map` (aligned to a huge page) or `remap` (to a page, and only for
// alignments a page meets), and unmapped with the same length. A fresh
// anonymous mapping reads as zeros.
unsafe impl GlobalAlloc for HugePages {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if is_mapped(layout) {
            return map(mapped_len(layout.size()));
        }
        // SAFETY: the caller's contract is `System`'s.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if is_mapped(layout) {
            return map(mapped_len(layout.size()));
        }
        // SAFETY: as `alloc`.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if is_mapped(layout) {
            // SAFETY: `ptr` is a mapping of this length made by `map`.
            unsafe { libc::munmap(ptr.cast(), mapped_len(layout.size())) };
            return;
        }
        // SAFETY: `ptr` came from `System` with `layout`.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller's contract: `new_size` is non-zero and valid
        // with `layout`'s alignment.
        let new_layout = unsafe { Layout::from_size_align_unchecked(new_size, layout.align()) };
        if !is_mapped(layout) && !is_mapped(new_layout) {
            // SAFETY: `ptr` came from `System` with `layout`.
            return unsafe { System.realloc(ptr, layout, new_size) };
        }
        if is_mapped(layout) && is_mapped(new_layout) {
            let (old_len, new_len) = (mapped_len(layout.size()), mapped_len(new_size));
            if new_len == old_len {
                return ptr;
            }
            if layout.align() <= MIN_PAGE {
                return remap(ptr, old_len, new_len);
            }
        }
        // SAFETY: `new_layout` is valid and non-zero; both blocks hold at
        // least the bytes copied; the old block is freed with its layout.
        unsafe {
            let new = self.alloc(new_layout);
            if !new.is_null() {
                std::ptr::copy_nonoverlapping(ptr, new, layout.size().min(new_size));
                self.dealloc(ptr, layout);
            }
            new
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sizes on each side of the bound, and within one mapped length.
    const SIZES: [usize; 7] = [
        1,
        4096,
        MAPPED - 1,
        MAPPED,
        HUGE_PAGE,
        HUGE_PAGE + 1,
        3 * HUGE_PAGE + 17,
    ];

    #[test]
    fn blocks_start_zeroed_and_keep_their_bytes_as_they_change_size() {
        // Alignments a page meets (moved by the kernel) and one it may not
        // (copied).
        for align in [64, 2 * MIN_PAGE] {
            for from in SIZES {
                for to in SIZES {
                    changed_size(from, to, align);
                }
            }
        }
    }

    /// A block of `from` bytes zeroed, filled, made `to` long and freed.
    fn changed_size(from: usize, to: usize, align: usize) {
        let layout = Layout::from_size_align(from, align).unwrap();
        // SAFETY: non-zero layouts; each block is used within its size and
        // freed with the layout it has then.
        unsafe {
            let block = HugePages.alloc_zeroed(layout);
            assert!(!block.is_null());
            assert_eq!(block as usize % align, 0);
            if is_mapped(layout) {
                assert_eq!(block as usize % HUGE_PAGE, 0);
            }
            let bytes = std::slice::from_raw_parts_mut(block, from);
            assert!(bytes.iter().all(|&b| b == 0), "{from} bytes zeroed");
            for (i, b) in bytes.iter_mut().enumerate() {
                *b = i as u8;
            }
            let moved = HugePages.realloc(block, layout, to);
            assert!(!moved.is_null());
            assert_eq!(moved as usize % align, 0, "{from} -> {to} aligned");
            let kept = std::slice::from_raw_parts(moved, from.min(to));
            assert!(
                kept.iter().enumerate().all(|(i, &b)| b == i as u8),
                "{from} -> {to} bytes kept"
            );
            HugePages.dealloc(moved, Layout::from_size_align(to, align).unwrap());
        }
    }
}
