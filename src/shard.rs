//! `--shard K/N`: one of N shares of a batch's pages, so that N runs on any
//! machines (GNU parallel, a Slurm array, a Kubernetes Indexed Job) do the
//! job together with no scheduler of ours. The shares depend only on the
//! list of pages, which every run computes the same from the same command:
//! page `i` of the list (across all inputs, in order) goes to share
//! `i mod N`. Dealing pages round-robin rather than in blocks keeps the
//! shares even when the hard pages are bunched (a book's answer pages are
//! all at its end).

/// The K-th (1-based) of N shares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    /// Which share, 1..=count.
    pub index: usize,
    /// How many shares.
    pub count: usize,
}

/// Most shares: far more than any batch has machines, small enough that
/// `--shard 1/100000000` is refused as the typo it is.
pub const MAX_SHARDS: usize = 100_000;

impl Shard {
    /// Parses `K/N` with 1 <= K <= N <= [`MAX_SHARDS`].
    pub fn parse(text: &str) -> Result<Shard, String> {
        let bad = || {
            format!("{text:?}: a shard is K/N, two whole numbers with 1 <= K <= N <= {MAX_SHARDS} (e.g. 2/8)")
        };
        let (k, n) = text.trim().split_once('/').ok_or_else(bad)?;
        let index: usize = k.trim().parse().map_err(|_| bad())?;
        let count: usize = n.trim().parse().map_err(|_| bad())?;
        if index == 0 || index > count || count > MAX_SHARDS {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }

    /// True when item `i` (0-based, of the batch's list) is this share's.
    pub fn takes(&self, i: usize) -> bool {
        i % self.count == self.index - 1
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_parse_and_are_checked() {
        assert_eq!(Shard::parse("2/8"), Ok(Shard { index: 2, count: 8 }));
        assert_eq!(Shard::parse(" 1 / 1 "), Ok(Shard { index: 1, count: 1 }));
        for bad in ["0/3", "4/3", "3", "a/b", "1/0", "-1/3", "1/100001", ""] {
            assert!(Shard::parse(bad).unwrap_err().contains("K/N"), "{bad}");
        }
    }

    #[test]
    fn every_item_is_in_exactly_one_share() {
        for count in 1..6 {
            for i in 0..40 {
                let owners = (1..=count)
                    .filter(|&index| Shard { index, count }.takes(i))
                    .count();
                assert_eq!(owners, 1, "item {i} of {count} shares");
            }
        }
    }
}
