#!/usr/bin/env bash
# Issue 19: the a2afft command is built on the installed API alone. Every `#include "..."` in apps/
# must name a file in apps/, and every `#include <a2afft/...>` an installed header: the core
# (include/a2afft/) or the tools (include/a2afft/tools/, issue 32); a quoted or
# angled include that names a project header elsewhere (transpose/, fft/, src/, the generated
# headers) fails the test, naming the file and line.
# Usage: apps_use_public_headers.sh SOURCE_DIR
set -u
source_dir=$1
cd "$source_dir" || exit 2
internal_dirs=(transpose fft src)
failures=0
checked=0
while IFS= read -r file; do
  dir=$(dirname "$file")
  while IFS=: read -r line text; do
    checked=$((checked + 1))
    name=$(sed -E 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*["<]([^">]+)[">].*/\1/' <<<"$text")
    if [[ $text =~ \#[[:space:]]*include[[:space:]]*\" ]]; then
      # Quoted: resolved next to the file or from apps/, as the build's include path does.
      if [[ ! -f "$dir/$name" && ! -f "apps/$name" ]]; then
        echo "$file:$line: #include \"$name\" is not an apps/ file; use a public <a2afft/...> header"
        failures=$((failures + 1))
      fi
    elif [[ $name == a2afft/* ]]; then
      if [[ ! -f "include/$name" && ! -f "include/$name.in" ]]; then
        echo "$file:$line: <$name> is not a public header (include/a2afft/)"
        failures=$((failures + 1))
      fi
    else
      for internal in "${internal_dirs[@]}"; do
        if [[ -f "$internal/$name" ]]; then
          echo "$file:$line: <$name> is the internal $internal/$name; use a public header"
          failures=$((failures + 1))
        fi
      done
    fi
  done < <(grep -nE '^[[:space:]]*#[[:space:]]*include' "$file")
done < <(find apps -type f \( -name '*.cpp' -o -name '*.hpp' -o -name '*.h' \) | sort)
# A check that sees nothing proves nothing.
if ((checked == 0)); then
  echo "no includes found under $source_dir/apps"
  exit 1
fi
if ((failures > 0)); then
  echo "$failures include(s) in apps/ reach past the public API"
  exit 1
fi
echo "apps/: $checked includes checked, all apps/ files or public headers"
