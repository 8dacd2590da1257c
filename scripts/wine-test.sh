#!/usr/bin/env bash
# wine-test.sh: runs frd's tests for windows/amd64 under Wine 8, which
# covers the FULL-class fallback (Wine refuses the EXTD classes), the end of
# a listing and ERROR_MORE_DATA, on real files.
#
#   scripts/wine-test.sh [extra go test flags]
#
# It installs Wine and MinGW from Debian when missing, builds a stand-in
# bcryptprimitives.dll (Go's runtime needs ProcessPrng, which Wine 8 lacks),
# builds the test binary and runs it with a private Wine prefix.
set -euo pipefail
cd "$(dirname "$0")/.."
wine=/usr/lib/wine/wine64
if [ ! -x "$wine" ] || ! command -v x86_64-w64-mingw32-gcc >/dev/null; then
	# Exit 77 (skipped) when the packages cannot be had here.
	{ apt-get update -qq && apt-get install -y -qq --no-install-recommends wine64 gcc-mingw-w64-x86-64-win32 >/dev/null; } ||
		{ echo "wine-test: cannot install wine64 and MinGW; skipping" >&2; exit 77; }
fi
out=bench-out
mkdir -p "$out"
export WINEPREFIX=${WINEPREFIX:-/tmp/frd-wine-prefix} WINEDEBUG=-all
if [ ! -d "$WINEPREFIX/drive_c/windows/system32" ]; then
	"$wine" wineboot --init >/dev/null 2>&1 || true
	/usr/lib/wine/wineserver -w || true
fi
x86_64-w64-mingw32-gcc -shared -O2 -o "$WINEPREFIX/drive_c/windows/system32/bcryptprimitives.dll" \
	scripts/wine/bcryptprimitives.c -ladvapi32
GOOS=windows GOARCH=amd64 go test -c -o "$out/frd.test.exe" ./frd
# Wine cannot remove the test directories (os.RemoveAll fails there), so the
# tests that need cleanup tolerate it; symbolic links are not made.
"$wine" "$out/frd.test.exe" -test.run 'Windows|ReadDirEmpty|ReadDirOne|ManyEntries|ReuseSlice|ReuseNames|Errors|SortByName|ModTimeNonRegular|Stat$' "$@"
