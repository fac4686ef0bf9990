#!/bin/sh
# Builds this plugin OUT OF TREE with swiftc and cc, against a transhost source checkout:
#
#   TRANSHOST_SRC=/path/to/transhost ./build.sh [OUT_DIR]
#
# OUT_DIR (default: ./build) receives the installable plugin directory OUT_DIR/<name>/
# (manifest.json, lib<name>.so, demo.json); copy that directory into a plugins directory, or pass
# OUT_DIR to `transhost run --plugins`. Environment:
#   TRANSHOST_SRC  the transhost checkout (required): its public headers
#                  (Sources/CTransHost/include), the Swift kit (Sources/TransHostAnimatorKit) and
#                  the UIKit, QuartzCore and CoreGraphics modules that re-export it
#   SWIFTC, CC     compilers (default: swiftc, cc)
#   SWIFTFLAGS     extra swiftc flags, e.g. -O
set -eu

here=$(cd "$(dirname "$0")" && pwd)
: "${TRANSHOST_SRC:?set TRANSHOST_SRC to the transhost checkout (the directory with Package.swift)}"
src=$(cd "$TRANSHOST_SRC" && pwd)
out=${1:-"$here/build"}
mkdir -p "$out"
out=$(cd "$out" && pwd)
swiftc=${SWIFTC:-swiftc}
cc=${CC:-cc}
flags="-swift-version 5 ${SWIFTFLAGS:-}"

# The plugin's name, module and library come from here; keep them in step with manifest.json
# and Entry/entry.c.
name=slide-in
module=SlideIn
lib="lib$name.so"

include="$src/Sources/CTransHost/include"
[ -f "$include/transhost.h" ] || { echo "build.sh: $include/transhost.h not found; is TRANSHOST_SRC a transhost checkout?" >&2; exit 1; }
obj="$out/.obj"
rm -rf "$obj"
mkdir -p "$obj/CTransHost"

# 1. A module map so that Swift can `import CTransHost` (the public C header).
cat > "$obj/CTransHost/module.modulemap" <<MAP
module CTransHost {
    umbrella "$include"
    export *
}
MAP

# 2. The kit, as a static library with its Swift module, and the modules a UIKit source file
#    imports (UIKit, QuartzCore, CoreGraphics: each re-exports the kit and Foundation). They are
#    linked into the plugin (each Swift plugin carries its own copy; the host never links them).
# shellcheck disable=SC2086
"$swiftc" $flags -parse-as-library -module-name TransHostAnimatorKit \
    -I "$obj/CTransHost" \
    -emit-module -emit-module-path "$obj/TransHostAnimatorKit.swiftmodule" \
    -emit-library -static -o "$obj/libTransHostAnimatorKit.a" \
    "$src"/Sources/TransHostAnimatorKit/*.swift
shims=""
for shim in UIKit QuartzCore CoreGraphics; do
    # shellcheck disable=SC2086
    "$swiftc" $flags -parse-as-library -module-name "$shim" \
        -I "$obj" -I "$obj/CTransHost" \
        -emit-module -emit-module-path "$obj/$shim.swiftmodule" \
        -emit-library -static -o "$obj/lib$shim.a" \
        "$src/Sources/$shim/$shim.swift"
    shims="$shims $obj/lib$shim.a"
done

# 3. The C entry (transhost_plugin_entry), hidden visibility for everything else.
"$cc" -std=c11 -fPIC -fvisibility=hidden -I "$include" -c "$here/Entry/entry.c" -o "$obj/entry.o"

# 4. The plugin: its Swift sources + the entry + the kit, one shared library. -z defs makes a
#    missing symbol (no Export.swift, so no th_swift_plugin_make) a link error here rather
#    than a load failure in the host.
mkdir -p "$out/$name"
# shellcheck disable=SC2086
"$swiftc" $flags -parse-as-library -module-name "$module" \
    -I "$obj" -I "$obj/CTransHost" \
    -Xlinker -z -Xlinker defs \
    -emit-library -o "$out/$name/$lib" \
    "$here"/Swift/*.swift "$obj/entry.o" $shims "$obj/libTransHostAnimatorKit.a"

# 5. The installable directory: the manifest beside the library (and the demo scenario).
cp "$here/manifest.json" "$here/demo.json" "$out/$name/"
rm -rf "$obj"
echo "$out/$name"
