#!/usr/bin/env bash
# Long fuzzing, run before a release: each cargo-fuzz target of fuzz/ under
# the address sanitizer for --seconds (default 600) one after another, then a
# table per target (run time, executions, new inputs, slowest input, peak
# RSS, result) printed and written to docs/fuzzing.md (--doc FILE elsewhere,
# --no-doc nowhere). Exit status 1 when a target found a crash, a hang or an
# out-of-memory input; the input is kept under target/fuzz/artifacts/.
#
#   nice scripts/fuzz.sh                      # every target, 10 minutes each
#   scripts/fuzz.sh --seconds 30 --no-doc sicily text_reader
#
# Every commit replays the committed corpora on stable instead
# (tests/fuzz_corpus.rs); this script is the slow search for new inputs.
# It needs the nightly toolchain (`rustup toolchain install nightly`);
# cargo-fuzz comes from crates.io when missing (about 1.5 CPU-minutes), into
# target/cargo-fuzz so nothing outside the checkout changes. The first build
# compiles tract, hayro and image address-sanitised: about 25 CPU-minutes.
# Each target starts from fuzz/corpus/<target> and from what earlier runs
# found (target/fuzz/corpus/<target>, where new inputs go); a crash found is
# copied into fuzz/corpus/<target> by hand once fixed, so every commit
# replays it.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

# Limits per input. A text target's input that takes over 10 s is a hang.
# The photo and PDF targets run the digit model and the renderer, which the
# sanitizer (and cargo-fuzz's debug assertions) slow twenty- to fortyfold:
# a 160x120 WebP reads in 0.1 s released and 5.7 s here, a page of many
# drawing operations (the measure lets 4 million through) renders in 1.8 s
# released and 12 s here, more on a loaded machine. For them a hang is
# what the product itself stops: a page past 60 s (--page-timeout).
# 1 GB of memory is well above what a valid input needs (a 40 MP photo) and
# below what the machine has, so an input that allocates more is reported
# instead of swapping.
TEXT_TIMEOUT_S=10
MODEL_TIMEOUT_S=60
RSS_LIMIT_MB=1024
ALL_TARGETS=(text_reader sicily set_override image_read pdf_read)

seconds=600
doc="docs/fuzzing.md"
targets=()
while [[ $# -gt 0 ]]; do
    case "$1" in
        --seconds)
            [[ $# -ge 2 && "$2" =~ ^[1-9][0-9]*$ ]] || {
                echo "fuzz.sh: --seconds takes a whole number of seconds" >&2
                exit 2
            }
            seconds="$2"
            shift 2
            ;;
        --doc)
            [[ $# -ge 2 ]] || { echo "fuzz.sh: --doc takes a file" >&2; exit 2; }
            doc="$2"
            shift 2
            ;;
        --no-doc)
            doc=""
            shift
            ;;
        -h | --help)
            sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
            exit 0
            ;;
        -*)
            echo "fuzz.sh: unknown option $1 (see --help)" >&2
            exit 2
            ;;
        *)
            [[ -f "fuzz/fuzz_targets/$1.rs" ]] || {
                echo "fuzz.sh: no fuzz target $1 (targets: ${ALL_TARGETS[*]})" >&2
                exit 2
            }
            targets+=("$1")
            shift
            ;;
    esac
done
[[ ${#targets[@]} -gt 0 ]] || targets=("${ALL_TARGETS[@]}")
command_line="scripts/fuzz.sh --seconds $seconds ${targets[*]}"

if ! rustup run nightly rustc --version >/dev/null 2>&1; then
    echo "fuzz.sh: no nightly toolchain (rustup toolchain install nightly)" >&2
    exit 2
fi
if ! cargo +nightly fuzz --version >/dev/null 2>&1; then
    fuzz_root="$root/target/cargo-fuzz"
    export PATH="$fuzz_root/bin:$PATH"
    if ! cargo +nightly fuzz --version >/dev/null 2>&1; then
        echo "fuzz.sh: installing cargo-fuzz into $fuzz_root"
        cargo install --locked --quiet --root "$fuzz_root" cargo-fuzz
    fi
fi

work="$root/target/fuzz"
build_dir="$work/build"
# Both vision targets need the `image`/`pdf` features; one feature set for
# every target means one build serves them all.
# The limit per input of a target (see above).
unit_timeout() {
    case "$1" in
    image_read | pdf_read) echo "$MODEL_TIMEOUT_S" ;;
    *) echo "$TEXT_TIMEOUT_S" ;;
    esac
}

fuzz_flags=(--sanitizer address --features image,pdf --target-dir "$build_dir")
echo "fuzz.sh: building ${targets[*]} (address sanitizer)"
build_start=$(date +%s)
for target in "${targets[@]}"; do
    (cd fuzz && cargo +nightly fuzz build "${fuzz_flags[@]}" "$target")
done
echo "fuzz.sh: built in $(($(date +%s) - build_start)) s"
load_start=$(cut -d' ' -f1-3 /proc/loadavg)

# One libFuzzer statistic (`stat::NAME: VALUE`) from a log, or "-".
stat() {
    local value
    value=$(sed -n "s/^stat::$1: *//p" "$2" | tail -n 1)
    echo "${value:--}"
}

rows=()
failed=0
for target in "${targets[@]}"; do
    corpus="$work/corpus/$target"
    artifacts="$work/artifacts/$target"
    log="$work/logs/$target.log"
    mkdir -p "$corpus" "$artifacts" "$(dirname "$log")"
    echo "fuzz.sh: $target for $seconds s (log: ${log#"$root"/})"
    known=$(ls "$artifacts")
    start=$(date +%s)
    status=0
    (cd fuzz && cargo +nightly fuzz run "${fuzz_flags[@]}" "$target" \
        "$corpus" "$root/fuzz/corpus/$target" -- \
        -max_total_time="$seconds" -timeout="$(unit_timeout "$target")" \
        -rss_limit_mb="$RSS_LIMIT_MB" -malloc_limit_mb="$RSS_LIMIT_MB" \
        -print_final_stats=1 -artifact_prefix="$artifacts/") >"$log" 2>&1 || status=$?
    run_s=$(($(date +%s) - start))
    if [[ $status -eq 0 ]]; then
        result="no crash"
    else
        failed=1
        found=$(comm -13 <(echo "$known") <(ls "$artifacts") | head -n 1)
        result="FAILED (exit $status${found:+: target/fuzz/artifacts/$target/$found})"
    fi
    rows+=("| $target | $(unit_timeout "$target") | $run_s | $(stat number_of_executed_units "$log") | $(stat average_exec_per_sec "$log") | $(stat new_units_added "$log") | $(stat slowest_unit_time_sec "$log") | $(stat peak_rss_mb "$log") | $result |")
done

load_end=$(cut -d' ' -f1-3 /proc/loadavg)
# The rows of targets not run now, from the document as it was (a row in
# the current layout only), so that rerunning one target keeps the others.
kept=()
if [[ -n "$doc" && -f "$doc" ]]; then
    for target in "${ALL_TARGETS[@]}"; do
        [[ " ${targets[*]} " == *" $target "* ]] && continue
        row=$(grep -E "^\| $target \| [0-9]+ \| " "$doc" | awk -F'|' 'NF == 11' | head -n 1 || true)
        [[ -n "$row" ]] && kept+=("$row")
    done
fi
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
# The toolchain's name and version, without its commit and date.
toolchain=$(rustc +nightly --version | cut -d' ' -f1-2)
table() {
    echo "Command: \`$command_line\`"
    echo
    echo "Machine: $(nproc) cores ($cpu), load average $load_start at the start and"
    echo "$load_end at the end (executions per second fall with the load);"
    echo "$toolchain, address sanitizer; memory per input: ${RSS_LIMIT_MB} MB."
    if ((${#kept[@]})); then
        echo "Rows of targets not in this command are kept from an earlier run."
    fi
    echo
    echo "| target | limit per input (s) | run time (s) | executions | per second | new inputs | slowest input (s) | peak RSS (MB) | result |"
    echo "|---|---:|---:|---:|---:|---:|---:|---:|---|"
    printf '%s\n' "${rows[@]}" ${kept[@]+"${kept[@]}"}
}
echo
table
if [[ -n "$doc" ]]; then
    mkdir -p "$(dirname "$doc")"
    {
        echo "# Fuzzing"
        echo
        echo "Written by \`scripts/fuzz.sh\`; rerun it to update this file, do not edit it."
        echo "Each target's check is in \`fuzz/checks/<target>.rs\`, and"
        echo "\`tests/fuzz_corpus.rs\` replays the committed corpora on every \`cargo test\`."
        echo
        table
        echo
        echo "What each target checks, on any bytes:"
        echo
        for target in "${ALL_TARGETS[@]}"; do
            # The first paragraph of the check's module documentation.
            what=$(sed -n '/^\/\/!/!q; s/^\/\/! \{0,1\}//p' "fuzz/checks/$target.rs" |
                sed '/^$/q' | tr '\n' ' ' | sed 's/ *$//')
            echo "- \`$target\`: $what"
        done
    } >"$doc"
    echo "fuzz.sh: wrote $doc"
fi
exit "$failed"
