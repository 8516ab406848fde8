#!/usr/bin/env bash
# `make fuzz`: every fuzz target (fuzz/fuzz_targets) for FUZZ_SECS seconds each (default 60),
# seeded from ../shared/corpus (the exporters' target from the models of those files), then a
# table of executions per second and coverage per target. Fails when a target found a crash;
# its input is kept under fuzz/artifacts/<target>/ to become a regression test.
#
# libFuzzer's coverage instrumentation works on stable Rust; AddressSanitizer needs nightly,
# so it is used when a nightly toolchain is installed (FUZZ_SANITIZER=none to skip it).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
CORPUS=$ROOT/../shared/corpus
SECS=${FUZZ_SECS:-60}
TARGET_DIR=$ROOT/target/fuzz

command -v cargo-fuzz >/dev/null || cargo install --locked cargo-fuzz@0.13.2
if [ -z "${FUZZ_SANITIZER:-}" ]; then
  if rustup toolchain list | grep -q '^nightly'; then FUZZ_SANITIZER=address; else FUZZ_SANITIZER=none; fi
fi
toolchain=+stable
[ "$FUZZ_SANITIZER" = none ] || toolchain=+nightly

seed() { # seed TARGET GLOB...
  local dir=fuzz/corpus/$1; shift
  mkdir -p "$dir"
  for f in "$@"; do [ -f "$f" ] && cp -n "$f" "$dir/" || true; done
}
seed import_markdown "$CORPUS"/markdown/*
seed import_html "$CORPUS"/html/*.html
seed import_image "$CORPUS"/images/*.png "$CORPUS"/images/*.jpg "$CORPUS"/images/*.jpeg
seed import_pdf "$CORPUS"/pdf/*.pdf
seed import_svg "$CORPUS"/svg/*.svg
seed import_mermaid "$CORPUS"/mermaid/*
seed import_drawio "$CORPUS"/drawio/*
seed import_vsdx "$CORPUS"/vsdx/*
# The exporters read models: the models of the corpus files, made by the real pipeline.
mkdir -p fuzz/corpus/export_model
quire=$ROOT/target/release/quire
if [ -x "$quire" ]; then
  export QUIRE_DATA=$TARGET_DIR/data QUIRE_PLUGINS_DIR=$ROOT/target/plugins QUIRE_LOG=error
  for f in "$CORPUS"/markdown/*.md "$CORPUS"/mermaid/*.mmd "$CORPUS"/drawio/*.drawio "$CORPUS"/svg/*.svg "$CORPUS"/vsdx/*.vsdx; do
    out=fuzz/corpus/export_model/$(basename "$f").json
    [ -s "$out" ] || "$quire" convert "$f" --to json -o "$out" 2>/dev/null || rm -f "$out"
  done
fi

cd fuzz
cargo $toolchain fuzz build -O -s "$FUZZ_SANITIZER" --target-dir "$TARGET_DIR"
printf '%-18s %10s %8s %8s %8s\n' target runs exec/s cov features
failed=0
for target in $(cargo fuzz list); do
  log=$TARGET_DIR/$target.log
  if ! cargo $toolchain fuzz run -O -s "$FUZZ_SANITIZER" --target-dir "$TARGET_DIR" "$target" \
      -- -max_total_time="$SECS" -timeout=20 -rss_limit_mb=2048 -print_final_stats=1 >"$log" 2>&1; then
    failed=1
    echo "$target: FOUND A CRASH, see $log and fuzz/artifacts/$target/" >&2
  fi
  runs=$(grep -oE '^stat::number_of_executed_units: *[0-9]+' "$log" | grep -oE '[0-9]+$' || echo 0)
  rate=$(grep -oE '^stat::average_exec_per_sec: *[0-9]+' "$log" | grep -oE '[0-9]+$' || echo 0)
  last=$(grep -E '^#[0-9]+' "$log" | tail -n 1)
  cov=$(grep -oE 'cov: [0-9]+' <<<"$last" | grep -oE '[0-9]+' || echo 0)
  ft=$(grep -oE 'ft: [0-9]+' <<<"$last" | grep -oE '[0-9]+' || echo 0)
  printf '%-18s %10s %8s %8s %8s\n' "$target" "$runs" "$rate" "$cov" "$ft"
done
exit $failed
