extension PluginProject {
    var readme: String {
        let sources = language == .c
            ? "- `plugin.c`: the animator (`slide-in`) and the entry, in C against `transhost.h`;"
            : "- `Swift/SlideIn.swift`: the animator (`slide-in`), written as for UIKit;\n- `Swift/Export.swift`: the one-line export that names what the manifest's animator ids stand for;\n- `Entry/entry.c`: the exported entry (name and version come from `manifest.json` at build time);"
        return """
        # A transhost plugin

        Made by `transhost new`. The plugin's name and version are written once, in
        `manifest.json`; `build.sh` reads them from there, so renaming the plugin is that one edit.

        \(sources)
        - `manifest.json`: the name, the animator's route (navigation push ListController ->
          DetailController, and the pop back) and its `configure` parameters;
        - `demo.json`: a scenario that pushes, pops and cancels an interactive push;
        - `build.sh`: builds the installable plugin directory `OUT_DIR/<name>/`.

        ## Build

        Against the installed SDK (`scripts/install` of a transhost checkout; `pkg-config` finds
        it) or against a checkout:

        ```sh
        ./build.sh plugins                               # installed SDK
        TRANSHOST_SRC=/path/to/transhost ./build.sh plugins   # a checkout instead
        ```

        ## Check and play

        ```sh
        transhost validate plugins/*/                    # the transition contract, test by test
        transhost run --scenario demo.json --plugins plugins --out out/demo
        transhost run --scenario demo.json --plugins plugins --out out/slow --param NAME.duration=1
        ```

        (`NAME` is the plugin's name from `manifest.json`.) Install it by copying
        `plugins/<name>/` into a plugins directory on the search path, for example
        `~/.local/share/transhost/plugins/`.

        """
    }

    static func buildScript(_ language: Language) -> String {
        let compile: String
        switch language {
        case .c:
            compile = """
            # shellcheck disable=SC2086
            "$cc" -std=c11 -shared -fPIC -fvisibility=hidden -Wall -Wextra -Werror -Wl,-z,defs $cflags \\
                -DTH_PLUGIN_NAME="\\"$name\\"" -DTH_PLUGIN_VERSION="\\"$version\\"" \\
                -o "$out/$name/libplugin.so" "$here/plugin.c" -lm
            """
        case .swift:
            compile = """
            obj="$out/.obj-$name"
            rm -rf "$obj"
            mkdir -p "$obj"
            if [ -n "$src" ]; then
                # The kit and the UIKit, QuartzCore and CoreGraphics modules, built from the checkout.
                mkdir -p "$obj/CTransHost"
                printf 'module CTransHost {\\n    umbrella "%s"\\n    export *\\n}\\n' "$include" > "$obj/CTransHost/module.modulemap"
                # shellcheck disable=SC2086
                "$swiftc" $flags -parse-as-library -module-name TransHostAnimatorKit -I "$obj/CTransHost" \\
                    -emit-module -emit-module-path "$obj/TransHostAnimatorKit.swiftmodule" \\
                    -emit-library -static -o "$obj/libTransHostAnimatorKit.a" "$src"/Sources/TransHostAnimatorKit/*.swift
                for shim in UIKit QuartzCore CoreGraphics; do
                    # shellcheck disable=SC2086
                    "$swiftc" $flags -parse-as-library -module-name "$shim" -I "$obj" -I "$obj/CTransHost" \\
                        -emit-module -emit-module-path "$obj/$shim.swiftmodule" \\
                        -emit-library -static -o "$obj/lib$shim.a" "$src/Sources/$shim/$shim.swift"
                done
                swiftkit="-I $obj -I $obj/CTransHost -L $obj -lUIKit -lQuartzCore -lCoreGraphics -lTransHostAnimatorKit"
            else
                swiftkit=$(pkg-config --cflags --libs transhost-swift)
            fi
            # The C entry; everything but transhost_plugin_entry stays hidden.
            # shellcheck disable=SC2086
            "$cc" -std=c11 -fPIC -fvisibility=hidden $cflags -DTH_PLUGIN_NAME="\\"$name\\"" -DTH_PLUGIN_VERSION="\\"$version\\"" \\
                -c "$here/Entry/entry.c" -o "$obj/entry.o"
            # One shared library: the Swift sources, the entry and the kit. -z defs turns a missing
            # symbol (no Export.swift) into a link error here instead of a load failure later.
            # shellcheck disable=SC2086
            "$swiftc" $flags -parse-as-library -module-name "$module" -Xlinker -z -Xlinker defs \\
                -emit-library -o "$out/$name/libplugin.so" "$here"/Swift/*.swift "$obj/entry.o" $swiftkit
            rm -rf "$obj"
            """
        }
        return """
        #!/bin/sh
        # Builds this plugin out of tree into OUT_DIR/<name>/ (manifest.json, libplugin.so, demo.json):
        #
        #   ./build.sh [OUT_DIR]                              against the installed SDK (pkg-config transhost)
        #   TRANSHOST_SRC=/path/to/transhost ./build.sh [OUT_DIR]   against a checkout
        #
        # OUT_DIR defaults to ./build. CC\(language == .swift ? ", SWIFTC and SWIFTFLAGS" : " and CFLAGS") are honoured.
        set -eu
        here=$(cd "$(dirname "$0")" && pwd)
        out=${1:-"$here/build"}
        mkdir -p "$out"
        out=$(cd "$out" && pwd)
        cc=${CC:-cc}
        swiftc=${SWIFTC:-swiftc}
        flags="-swift-version 5 ${SWIFTFLAGS:-}"

        # The name and version, from manifest.json (their one place): its top-level keys are
        # indented by two spaces.
        field() { sed -n "s/^  \\"$1\\": *\\"\\([^\\"]*\\)\\".*/\\1/p" "$here/manifest.json" | head -n 1; }
        name=$(field name)
        version=$(field version)
        [ -n "$name" ] && [ -n "$version" ] || { echo "build.sh: no \\"name\\" or \\"version\\" in $here/manifest.json" >&2; exit 1; }
        module=Plugin_$(printf '%s' "$name" | tr -c 'A-Za-z0-9' '_')

        src=""
        if [ -n "${TRANSHOST_SRC:-}" ]; then
            src=$(cd "$TRANSHOST_SRC" && pwd)
            include="$src/Sources/CTransHost/include"
            [ -f "$include/transhost.h" ] || { echo "build.sh: $include/transhost.h not found; is TRANSHOST_SRC a transhost checkout?" >&2; exit 1; }
            cflags="-I $include ${CFLAGS:-}"
        elif pkg-config --exists transhost 2>/dev/null; then
            cflags="$(pkg-config --cflags transhost) ${CFLAGS:-}"
        else
            echo "build.sh: the transhost SDK is not installed (pkg-config cannot find transhost.pc); install it with scripts/install of a checkout, point PKG_CONFIG_PATH at PREFIX/lib/pkgconfig, or set TRANSHOST_SRC to a checkout" >&2
            exit 1
        fi

        mkdir -p "$out/$name"
        \(compile)
        # The host finds the plugin by this one exported symbol: a library without it is refused
        # here, not at dlopen.
        if command -v nm >/dev/null 2>&1 && ! nm -D --defined-only "$out/$name/libplugin.so" | grep -q ' transhost_plugin_entry$'; then
            echo "build.sh: $out/$name/libplugin.so does not export transhost_plugin_entry; define it with TH_EXPORT (C) or keep Entry/entry.c's TH_SWIFT_PLUGIN line" >&2
            rm -f "$out/$name/libplugin.so"
            exit 1
        fi
        cp "$here/manifest.json" "$here/demo.json" "$out/$name/"
        echo "$out/$name"

        """
    }
}
