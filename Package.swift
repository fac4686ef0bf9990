// swift-tools-version:6.0
//
// transhost — a headless, deterministic runtime for iOS-style view-controller transitions.
//
// Dependency direction: a module uses only modules above it in this list (what it uses, in []).
//   CTransHost (public C ABI header; the only thing a plugin includes)
//   TransHostSupport (strict JSON reader/writer with line numbers, stable output; atomic file IO)
//   TransHostCore (geometry, views/layers, the animatable property set, animation engine, virtual clock)
//   TransHostCoordinators [Core, Support] (controllers, navigation/tab/modal, transition context, defaults)
//   TransHostRouting [Coordinators] (route rules, the router and its explanations)
//   TransHostManifest [CTransHost, Support, Coordinators, Routing] (manifests, registry, configure
//       parameter types, the host ABI version, plugin host errors)
//   TransHostFFI [Manifest, libffi] (calling a plugin's typed native entry points)
//   TransHostDiscovery [Support, Manifest] (search path, scanner, scan cache, ELF inspection,
//       plugin records, staging)
//   TransHostPluginHost [all of the above] (loading, validation child, crash guard, the host
//       callbacks one group per file, the plugin runtime, --param overrides)
//   TransHostScenario [Core, Coordinators, Support] (scenario files, the app, the runner, the
//       event ledger, traces, golden comparison)
//   TransHostRender [Core, Support, cairo, pixman, libwebp] (frames to PNG, GIF, contact sheets)
//   TransHostReport [Support] (the HTML report: its values, page, embedded data, merging shards)
//   TransHostRun [Scenario, PluginHost, Render, Report, ...] (RunSession: resolve plugins, play,
//       render, write, compare, report)
//   TransHostIsolation [Run, PluginHost, ...] (playback workers: the worker mode, the supervisor
//       that spawns and watches them, the replay rule after a plugin failure)
//   TransHostValidation [Run, PluginHost, Scenario, ...] (`transhost validate`: the contract tests,
//       generated scenarios, one child process per test)
//   TransHostAuthoring [Manifest, Support] (`transhost new`: plugin project templates)
//   TransHostCommands [Authoring, Validation, Isolation, Run, Report, ...] (the CLI's logic: list, run, route,
//       inspect, validate, new, merge-reports, stage-plugins)
//   transhost [Commands] (executable: forwards argv, environment and console)
// Benchmarks (transhost-*-bench) and TransHostRenderScenes (their synthetic scenes) are not part
// of the product.
//
// First-party plugins live under Plugins/ and are built as shared libraries that do not depend on
// any host target: the host only ever reaches them through dlopen.
import PackageDescription

// The host's modules are compiled in the Swift 6 language mode (complete concurrency checking);
// the kit and the Swift plugins stay in Swift 5 mode for now (the kit's C-callback globals).
let hostSwift: [SwiftSetting] = [.swiftLanguageMode(.v6)]

let package = Package(
    name: "transhost",
    products: [
        .executable(name: "transhost", targets: ["transhost"]),
        // The Swift kit for plugin authors: `.package(path: CHECKOUT)` and
        // `.product(name: "TransHostAnimatorKit", package: "transhost")` give a plugin's targets the
        // kit, the UIKit, QuartzCore and CoreGraphics modules and the public C header.
        .library(name: "TransHostAnimatorKit", targets: ["TransHostAnimatorKit", "UIKit", "QuartzCore", "CoreGraphics", "CTransHost"]),
        .library(name: "fade-scale", type: .dynamic, targets: ["FadeScalePlugin"]),
        .library(name: "rotate-spring", type: .dynamic, targets: ["RotateSpringPlugin", "RotateSpringEntry"]),
        .library(name: "split-modal", type: .dynamic, targets: ["SplitModalPlugin", "SplitModalEntry"]),
        .library(name: "corner-fly", type: .dynamic, targets: ["CornerFlyPlugin", "CornerFlyEntry"]),
        .library(name: "snapshot-search", type: .dynamic, targets: ["SnapshotSearchPlugin", "SnapshotSearchEntry"]),
        .library(name: "sheet-drag", type: .dynamic, targets: ["SheetDragPlugin", "SheetDragEntry"]),
        .library(name: "half-sheet", type: .dynamic, targets: ["HalfSheetPlugin", "HalfSheetEntry"]),
        .library(name: "circle-reveal", type: .dynamic, targets: ["CircleRevealPlugin", "CircleRevealEntry"]),
        // Test fixture (Tests/KitProbe): UIKit-style delegates and interaction, played by KitCompatTests.
        .library(name: "kit-probe", type: .dynamic, targets: ["KitProbePlugin", "KitProbeEntry"]),
    ],
    targets: [
        .target(name: "CTransHost", path: "Sources/CTransHost"),
        .systemLibrary(name: "CFFI", pkgConfig: "libffi", providers: [.apt(["libffi-dev"])]),
        .target(name: "TransHostSupport", swiftSettings: hostSwift),
        .target(name: "TransHostCore", swiftSettings: hostSwift),
        .target(name: "TransHostCoordinators", dependencies: ["TransHostCore", "TransHostSupport"], swiftSettings: hostSwift),
        .target(name: "TransHostRouting", dependencies: ["TransHostCoordinators"], swiftSettings: hostSwift),
        .target(name: "TransHostManifest", dependencies: ["CTransHost", "TransHostSupport", "TransHostCoordinators", "TransHostRouting"], swiftSettings: hostSwift),
        .target(name: "TransHostFFI", dependencies: ["CFFI", "TransHostManifest"], swiftSettings: hostSwift),
        .target(name: "TransHostDiscovery", dependencies: ["TransHostSupport", "TransHostManifest"], swiftSettings: hostSwift),
        // Process control for child processes (prctl, memfd); internal to the host.
        .target(name: "CTransHostProcess", path: "Sources/CTransHostProcess"),
        .target(
            name: "TransHostPluginHost",
            dependencies: ["CTransHost", "CTransHostProcess", "TransHostSupport", "TransHostCore", "TransHostCoordinators", "TransHostRouting",
                           "TransHostManifest", "TransHostFFI", "TransHostDiscovery"],
            swiftSettings: hostSwift,
            linkerSettings: [.linkedLibrary("dl")]
        ),
        .target(name: "TransHostScenario", dependencies: ["TransHostCore", "TransHostCoordinators", "TransHostSupport"], swiftSettings: hostSwift),
        .target(name: "TransHostCommands", dependencies: ["TransHostAuthoring", "TransHostValidation", "TransHostIsolation", "TransHostRun", "TransHostReport", "TransHostScenario", "TransHostPluginHost", "TransHostRouting", "TransHostManifest", "TransHostDiscovery", "TransHostRender"], swiftSettings: hostSwift),
        .executableTarget(name: "transhost", dependencies: ["TransHostCommands"], swiftSettings: hostSwift),
        // Plugin host figures (README "Benchmarks"): not part of the product.
        .executableTarget(name: "transhost-host-bench", dependencies: ["TransHostPluginHost", "TransHostManifest", "TransHostDiscovery", "TransHostSupport"]),
        .executableTarget(name: "transhost-engine-bench", dependencies: ["TransHostCore"]),

        // The Swift kit for plugin authors: UIKit-flavoured wrappers over the C ABI. It is linked
        // into each Swift plugin, never into the host.
        .target(name: "TransHostAnimatorKit", dependencies: ["CTransHost"]),
        // `import UIKit` / `QuartzCore` / `CoreGraphics` for plugins: each re-exports the kit and
        // Foundation, so files written for UIKit compile unchanged. A plugin target also lists
        // TransHostAnimatorKit itself: with the re-export alone, SwiftPM was seen to keep a
        // plugin's stale objects after the kit changed (undefined symbols, crashes on its layout).
        .target(name: "UIKit", dependencies: ["TransHostAnimatorKit"]),
        .target(name: "QuartzCore", dependencies: ["TransHostAnimatorKit"]),
        .target(name: "CoreGraphics", dependencies: ["TransHostAnimatorKit"]),

        // First-party plugins. C plugins see only the public header, through a header search path.
        .target(
            name: "FadeScalePlugin",
            path: "Plugins/fade-scale",
            exclude: ["manifest.json"],
            sources: ["fade_scale.c"],
            publicHeadersPath: ".",
            cSettings: [.headerSearchPath("../../Sources/CTransHost/include"), .unsafeFlags(["-fvisibility=hidden"])]
        ),
        .target(name: "RotateSpringPlugin", dependencies: ["UIKit", "QuartzCore", "TransHostAnimatorKit"], path: "Plugins/rotate-spring/Swift"),
        .target(name: "RotateSpringEntry", dependencies: ["CTransHost"], path: "Plugins/rotate-spring/Entry",
                publicHeadersPath: ".", cSettings: [.unsafeFlags(["-fvisibility=hidden"])]),
        .target(name: "SplitModalPlugin", dependencies: ["UIKit", "QuartzCore", "TransHostAnimatorKit"], path: "Plugins/split-modal/Swift"),
        .target(name: "SplitModalEntry", dependencies: ["CTransHost"], path: "Plugins/split-modal/Entry",
                publicHeadersPath: ".", cSettings: [.unsafeFlags(["-fvisibility=hidden"])]),
        .target(name: "CornerFlyPlugin", dependencies: ["UIKit", "QuartzCore", "TransHostAnimatorKit"], path: "Plugins/corner-fly/Swift"),
        .target(name: "CornerFlyEntry", dependencies: ["CTransHost"], path: "Plugins/corner-fly/Entry",
                publicHeadersPath: ".", cSettings: [.unsafeFlags(["-fvisibility=hidden"])]),
        .target(name: "SnapshotSearchPlugin", dependencies: ["UIKit", "QuartzCore", "TransHostAnimatorKit"], path: "Plugins/snapshot-search/Swift"),
        .target(name: "SnapshotSearchEntry", dependencies: ["CTransHost"], path: "Plugins/snapshot-search/Entry",
                publicHeadersPath: ".", cSettings: [.unsafeFlags(["-fvisibility=hidden"])]),
        .target(name: "HalfSheetPlugin", dependencies: ["UIKit", "QuartzCore", "TransHostAnimatorKit"], path: "Plugins/half-sheet/Swift"),
        .target(name: "HalfSheetEntry", dependencies: ["CTransHost"], path: "Plugins/half-sheet/Entry",
                publicHeadersPath: ".", cSettings: [.unsafeFlags(["-fvisibility=hidden"])]),

        .target(name: "CircleRevealPlugin", dependencies: ["UIKit", "QuartzCore", "TransHostAnimatorKit"], path: "Plugins/circle-reveal/Swift"),
        .target(name: "CircleRevealEntry", dependencies: ["CTransHost"], path: "Plugins/circle-reveal/Entry",
                publicHeadersPath: ".", cSettings: [.unsafeFlags(["-fvisibility=hidden"])]),

        .target(name: "SheetDragPlugin", dependencies: ["UIKit", "QuartzCore", "TransHostAnimatorKit"], path: "Plugins/sheet-drag/Swift"),
        .target(name: "SheetDragEntry", dependencies: ["CTransHost"], path: "Plugins/sheet-drag/Entry",
                publicHeadersPath: ".", cSettings: [.unsafeFlags(["-fvisibility=hidden"])]),

        .target(name: "KitProbePlugin", dependencies: ["UIKit", "QuartzCore", "TransHostAnimatorKit"], path: "Tests/KitProbe/Swift"),
        .target(name: "KitProbeEntry", dependencies: ["CTransHost"], path: "Tests/KitProbe/Entry",
                exclude: [], publicHeadersPath: ".", cSettings: [.unsafeFlags(["-fvisibility=hidden"])]),

        // Shared by the test targets that run the real binary (not a product; never linked into the host).
        .target(name: "TransHostTestSupport", dependencies: ["CGif"], path: "Tests/TransHostTestSupport"),
        .testTarget(name: "TransHostSupportTests", dependencies: ["TransHostSupport", "TransHostTestSupport"]),
        .testTarget(name: "TransHostCoreTests", dependencies: ["TransHostCore"]),
        .testTarget(name: "TransHostRoutingTests", dependencies: ["TransHostRouting", "TransHostCoordinators"]),
        .testTarget(name: "TransHostManifestTests", dependencies: ["TransHostManifest", "CTransHost", "TransHostRouting", "TransHostSupport"]),
        .testTarget(name: "TransHostFFITests", dependencies: ["TransHostFFI", "TransHostManifest", "CTransHost", "CFFI"]),
        .testTarget(name: "TransHostDiscoveryTests", dependencies: ["TransHostDiscovery", "TransHostManifest", "CTransHost"]),
        .testTarget(name: "TransHostPluginHostTests", dependencies: ["TransHostPluginHost", "TransHostManifest", "TransHostDiscovery", "CTransHost"]),
        .testTarget(name: "TransHostCoordinatorsTests", dependencies: ["TransHostCoordinators"]),
        .testTarget(name: "TransHostScenarioTests", dependencies: ["TransHostScenario", "TransHostCoordinators", "TransHostSupport"]),
        .testTarget(name: "TransHostEndToEndTests", dependencies: ["TransHostCommands", "TransHostRun", "TransHostScenario", "TransHostPluginHost", "TransHostRouting", "TransHostManifest", "TransHostFFI", "TransHostDiscovery", "TransHostSupport", "TransHostTestSupport", "TransHostRender"]),
        .testTarget(name: "TransHostPluginTests", dependencies: ["TransHostRun", "TransHostScenario", "TransHostPluginHost", "TransHostRouting", "TransHostManifest", "TransHostFFI", "TransHostDiscovery", "TransHostCore", "TransHostSupport", "TransHostTestSupport"]),
    ],
    // Swift 5 mode for what hostSwift does not cover: the kit, the Swift plugins and the tests.
    swiftLanguageModes: [.v5]
)

// Rendering (TransHostRender): cairo draws view content, pixman composites layers under their
// transforms, our own encoder writes animated GIFs (CRenderKernels' LZW coder; giflib reads
// them back in tests and is the benchmark's floor) and libwebp lossless animated WebPs. System
// libraries come from Debian packages (see scripts/apt-packages.txt); CRenderKernels holds
// small C loops (compositing spans, GIF palettes and LZW, perceptual pixel diffs).
package.targets += [
    .systemLibrary(name: "CCairo", path: "Sources/CCairo", pkgConfig: "cairo", providers: [.apt(["libcairo2-dev"])]),
    .systemLibrary(name: "CPixman", path: "Sources/CPixman", pkgConfig: "pixman-1", providers: [.apt(["libpixman-1-dev"])]),
    .systemLibrary(name: "CGif", path: "Sources/CGif", providers: [.apt(["libgif-dev"])]),
    .systemLibrary(name: "CWebP", path: "Sources/CWebP", pkgConfig: "libwebpmux", providers: [.apt(["libwebp-dev"])]),
    .target(name: "CRenderKernels", path: "Sources/CRenderKernels", linkerSettings: [.linkedLibrary("z")]),
    .target(name: "TransHostRender", dependencies: ["TransHostCore", "TransHostSupport", "CCairo", "CPixman", "CGif", "CWebP", "CRenderKernels"], swiftSettings: hostSwift),
    // The run pipeline: resolve plugins, play scenarios, render, write, compare (RunSession).
    // The HTML report (report.html) and the merging of shards' reports; it knows only its own values.
    .target(name: "TransHostReport", dependencies: ["TransHostSupport"], swiftSettings: hostSwift),
    .target(name: "TransHostRun", dependencies: ["TransHostScenario", "TransHostPluginHost", "TransHostDiscovery", "TransHostRouting",
                                                 "TransHostRender", "TransHostReport", "TransHostSupport", "TransHostCoordinators"], swiftSettings: hostSwift),
    // Playback workers and their supervisor (docs/isolation.md): plugin code runs only there.
    .target(name: "TransHostIsolation", dependencies: ["TransHostRun", "TransHostScenario", "TransHostPluginHost", "TransHostManifest", "TransHostDiscovery",
                                                       "TransHostSupport", "TransHostCoordinators", "TransHostCore", "CTransHostProcess"],
            swiftSettings: hostSwift),
    // `transhost validate`: the plugin contract tests (each run in its own child process).
    .target(name: "TransHostValidation", dependencies: ["TransHostRun", "TransHostScenario", "TransHostPluginHost", "TransHostManifest",
                                                        "TransHostDiscovery", "TransHostRouting", "TransHostSupport", "TransHostCoordinators",
                                                        "TransHostCore"],
            swiftSettings: hostSwift),
    // `transhost new`: the plugin project templates.
    .target(name: "TransHostAuthoring", dependencies: ["TransHostManifest", "TransHostSupport"], swiftSettings: hostSwift),
    // Synthetic scenes for the render benchmark and tests (not part of the product).
    .target(name: "TransHostRenderScenes", dependencies: ["TransHostCore"]),
    .executableTarget(name: "transhost-render-bench", dependencies: ["CGif", "TransHostRenderScenes", "TransHostRender", "TransHostRun", "TransHostCore", "TransHostScenario", "TransHostPluginHost", "TransHostDiscovery", "TransHostSupport"]),
    .testTarget(name: "TransHostRunTests", dependencies: ["TransHostRun", "TransHostScenario", "TransHostDiscovery", "TransHostSupport", "TransHostCore"]),
    .testTarget(name: "TransHostReportTests", dependencies: ["TransHostReport", "TransHostSupport"]),
    .testTarget(name: "TransHostRenderTests", dependencies: ["TransHostRender", "TransHostRenderScenes", "TransHostCore", "CGif", "CWebP", "TransHostTestSupport"]),
]

// The UIKit compatibility corpus (Tests/CompatCorpus): animators, delegates and interaction
// controllers written as real UIKit code, built as one plugin that only CompatCorpusTests use.
package.products += [
    .library(name: "compat-corpus", type: .dynamic, targets: ["CompatCorpus", "CompatCorpusEntry"]),
]
package.targets += [
    // The kit directly as well as UIKit: with the re-export alone, incremental builds keep stale
    // objects when the kit changes.
    .target(name: "CompatCorpus", dependencies: ["UIKit", "QuartzCore", "TransHostAnimatorKit"], path: "Tests/CompatCorpus/Swift"),
    .target(name: "CompatCorpusEntry", dependencies: ["CTransHost"], path: "Tests/CompatCorpus/Entry",
            publicHeadersPath: ".", cSettings: [.unsafeFlags(["-fvisibility=hidden"])]),
    .testTarget(name: "CompatCorpusTests", dependencies: ["TransHostTestSupport"], path: "Tests/CompatCorpusTests"),
]
