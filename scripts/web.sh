#!/usr/bin/env bash
# The web page (crates/web): the pipeline compiled to WebAssembly, and the
# page around it.
#
#   scripts/web.sh install      the tools below, where missing (idempotent)
#   scripts/web.sh build        the page into target/web/ (serve it with any
#                               static server: python3 -m http.server -d target/web)
#   scripts/web.sh test         the browser tests (headless Chromium, Node)
#   scripts/web.sh bench        bundle size and time per photo, page against
#                               the native binary, into docs/performance.md
#   scripts/web.sh screenshots  the page at phone and desktop sizes, into docs/
#
# The tools, each from a package registry (no tool here downloads one of
# its own: a toolchain or a browser build cannot be fetched):
# - Debian's rustc-web (1.96) with its std sources (rust-web-src,
#   libstd-rust-web-dev): rustup cannot add the wasm32 target here, so std
#   is built from those sources (-Zbuild-std, allowed by RUSTC_BOOTSTRAP=1)
#   and linked with the rust-lld of the rustup toolchain;
# - wasm-bindgen-cli from crates.io, the version Cargo.lock pins for
#   wasm-bindgen, installed into target/tools/;
# - Debian's binaryen (wasm-opt) and chromium; Node's npm for playwright-core.
#
# Everything built goes under target/ (target/wasm for the WebAssembly
# build, target/web for the page, target/tools for wasm-bindgen-cli,
# crates/web/js/node_modules for npm's packages).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

# Debian's packages the web build and tests need.
APT_PACKAGES=(rustc-web rust-web-src libstd-rust-web-dev binaryen chromium)
WEB_RUSTC=/usr/bin/rustc
# WebAssembly features the page needs of a browser: SIMD (tract's matrix
# kernels; every current phone browser has it). The others are what
# rustc enables by default for this target.
WASM_RUSTFLAGS="-C target-feature=+simd128"
TARGET=wasm32-unknown-unknown

note() { echo "web.sh: $*" >&2; }
die() { note "$*"; exit 1; }

# The wasm-bindgen version Cargo.lock pins (crates/web pins it exactly).
bindgen_version() {
  awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock
}

bindgen_bin() {
  echo "$root/target/tools/wasm-bindgen-$(bindgen_version)/bin/wasm-bindgen"
}

# The rust-lld of the rustup toolchain (Debian's rustc-web has none).
rust_lld() {
  local sysroot host
  sysroot=$(rustc --print sysroot)
  host=$(rustc -vV | sed -n 's/^host: //p')
  echo "$sysroot/lib/rustlib/$host/bin/rust-lld"
}

# The oldest rustc the workspace builds with (its rust-version).
needed_rustc() {
  sed -n 's/^rust-version = "\(.*\)"$/\1/p' Cargo.toml | head -n 1
}

# True when the web rustc is there and at least the workspace's
# rust-version. A machine can carry an older rustc-web from its image
# (Debian's main suite has 1.85; the security suite has the newer one),
# and "installed" alone would then pass it.
web_rustc_new_enough() {
  local have need
  have=$("$WEB_RUSTC" --version 2>/dev/null | awk '{print $2}') || return 1
  need=$(needed_rustc)
  [[ -n $have && -n $need ]] || return 1
  [[ $(printf '%s\n%s\n' "$need" "$have" | sort -V | head -n 1) == "$need" ]]
}

# The packages to install: those not installed, and the Rust ones when
# the installed rustc-web is too old (installing them again upgrades).
missing_packages() {
  local p
  for p in "${APT_PACKAGES[@]}"; do
    if [[ $p == rustc-web || $p == rust-web-src || $p == libstd-rust-web-dev ]] &&
      ! web_rustc_new_enough; then
      echo "$p"
      continue
    fi
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || echo "$p"
  done
}

# Installs what is missing; says what it could not install and fails.
install() {
  local missing
  mapfile -t missing < <(missing_packages)
  if ((${#missing[@]})); then
    note "installing ${missing[*]} (apt-get)"
    if [[ $(id -u) != 0 ]]; then
      die "need root to install ${missing[*]}"
    fi
    apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      "${missing[@]}" >/dev/null || die "apt-get could not install ${missing[*]}"
    web_rustc_new_enough ||
      die "$WEB_RUSTC is $("$WEB_RUSTC" --version 2>/dev/null), older than rust-version $(needed_rustc)"
  fi
  local bindgen version
  bindgen=$(bindgen_bin)
  version=$(bindgen_version)
  [[ -n $version ]] || die "Cargo.lock pins no wasm-bindgen"
  if [[ ! -x $bindgen ]]; then
    note "installing wasm-bindgen-cli $version into target/tools (cargo install, a few minutes)"
    # Not --locked: the CLI's own lock pins a version of webpki-roots that
    # crates.io has yanked. The TLS it is for (the CLI's test runner
    # downloading browsers) is left out.
    cargo install --quiet --root "$(dirname "$(dirname "$bindgen")")" --version "$version" \
      --no-default-features wasm-bindgen-cli || die "could not install wasm-bindgen-cli $version"
  fi
  if [[ ! -d crates/web/js/node_modules/playwright-core ]]; then
    note "installing playwright-core (npm ci)"
    (cd crates/web/js && npm ci --no-audit --no-fund --loglevel=error) || die "npm ci failed"
  fi
}

# Checks the tools are there (build, test) and names what is missing.
check_tools() {
  local missing=()
  mapfile -t missing < <(missing_packages)
  [[ -x $(bindgen_bin) ]] || missing+=("wasm-bindgen-cli $(bindgen_version)")
  [[ -x $(rust_lld) ]] || missing+=("rust-lld (rustup's toolchain)")
  if ((${#missing[@]})); then
    die "missing ${missing[*]}: run scripts/web.sh install"
  fi
}

build() {
  check_tools
  local lld wasm out
  lld=$(rust_lld)
  out=target/web
  note "building the WebAssembly (a cold build takes about 25 minutes on 2 cores)"
  RUSTC=$WEB_RUSTC RUSTC_BOOTSTRAP=1 \
    CARGO_TARGET_DIR="$root/target/wasm" \
    CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER="$lld" \
    CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="$WASM_RUSTFLAGS" \
    cargo rustc --locked --quiet -p snap-web --lib --crate-type cdylib \
    --profile web --target "$TARGET" -Zbuild-std=std,panic_abort
  wasm=target/wasm/$TARGET/web/snap_web.wasm
  local opt=target/wasm/opt/snap_web.wasm
  rm -rf "$out"
  mkdir -p "$out/pkg" "$(dirname "$opt")"
  # wasm-opt before wasm-bindgen: Debian's binaryen (108) breaks the
  # externref table wasm-bindgen adds (the page fails to start: "Table.set:
  # function-typed object must be null"); before it there is none, and the
  # target-features section wasm-bindgen reads is kept. Three minutes: not
  # again while cargo's output is unchanged.
  if [[ ! $opt -nt $wasm ]]; then
    wasm-opt -Os --strip-debug --enable-simd --enable-bulk-memory --enable-sign-ext \
      --enable-nontrapping-float-to-int --enable-mutable-globals \
      --enable-reference-types --enable-multivalue \
      -o "$opt" "$wasm"
  fi
  "$(bindgen_bin)" --target web --no-typescript --out-dir "$out/pkg" "$opt"
  local bg=$out/pkg/snap_web_bg.wasm
  cp crates/web/www/* "$out/"
  stamp_service_worker "$out"
  note "built $out: wasm $(stat -c %s "$bg") bytes, $(gzip -9 -c "$bg" | wc -c) gzipped"
}

# Writes the build's name (a digest of every file) and the file list into
# the service worker, so that a new build replaces the old cache.
stamp_service_worker() {
  local out=$1 files digest list
  files=$(cd "$out" && find . -type f ! -name sw.js | sed 's|^\./||' | sort)
  digest=$(cd "$out" && echo "$files" | xargs sha256sum | sha256sum | cut -c1-16)
  list=$(printf '"./"'; for f in $files; do printf ', "%s"' "$f"; done)
  sed -i -e "s/__BUILD__/$digest/" -e "s|__FILES__|[$list]|" "$out/sw.js"
}

case "${1:-}" in
  install) install ;;
  build) build ;;
  test) check_tools; (cd crates/web/js && node --test test/) ;;
  bench) check_tools; (cd crates/web/js && node bench.mjs) ;;
  screenshots) check_tools; (cd crates/web/js && node screenshots.mjs) ;;
  *) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
esac
