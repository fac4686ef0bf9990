import Foundation
import TransHostTestSupport
import XCTest

/// `scripts/install PREFIX` into a temporary prefix, then, with only the prefix on PATH and
/// PKG_CONFIG_PATH (no checkout): the installed binary finds its plugins, `cc $(pkg-config
/// --cflags transhost)` compiles against the header, and `transhost new` + build.sh + validate
/// pass in both languages.
final class InstallSDKTests: XCTestCase {
    func testInstallThenNewBuildAndValidateWithOnlyTheInstalledSDK() throws {
        _ = try BuildProducts.library("libfade-scale.so")
        guard FileManager.default.fileExists(atPath: BuildProducts.binDirectory + "/plugins/fade-scale/manifest.json") else {
            throw XCTSkip("the first-party plugins are not staged beside the binary; run ./scripts/setup")
        }
        let root = try BuildProducts.temporaryDirectory(self)
        let prefix = root + "/prefix"
        // The products the tests run on (building here would wait for this test's own build).
        let install = try TestProcess.run(BuildProducts.packageRoot + "/scripts/install", [prefix],
                                          environment: ["TRANSHOST_BIN": BuildProducts.binDirectory, "SWIFTFLAGS": "-Onone"])
        XCTAssertEqual(install.status, 0, install.stderr)
        for f in ["bin/transhost", "include/transhost/transhost.h", "include/transhost/transhost_swift.h",
                  "lib/pkgconfig/transhost.pc", "lib/pkgconfig/transhost-swift.pc", "lib/transhost/registry.json",
                  "lib/transhost/plugins/fade-scale/manifest.json", "lib/transhost/swift/UIKit.swiftmodule",
                  "lib/transhost/swift/libTransHostAnimatorKit.a", "share/man/man1/transhost.1",
                  "share/bash-completion/completions/transhost", "share/zsh/site-functions/_transhost",
                  "share/fish/vendor_completions.d/transhost.fish"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: prefix + "/" + f), "\(f) was not installed")
        }
        let path = prefix + "/bin:" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
            .split(separator: ":").filter { !$0.hasPrefix(BuildProducts.packageRoot) }.joined(separator: ":")
        let env = ["PATH": path, "PKG_CONFIG_PATH": prefix + "/lib/pkgconfig", "TRANSHOST_SRC": "", "TRANSHOST_CACHE": root + "/cache.json"]
        func sh(_ command: String) throws -> TestProcess.Output { try TestProcess.run("/bin/sh", ["-c", command], environment: env, cwd: root) }

        let which = try sh("command -v transhost")
        XCTAssertEqual(which.stdout.trimmingCharacters(in: .whitespacesAndNewlines), prefix + "/bin/transhost")
        let list = try sh("transhost list")
        XCTAssertEqual(list.status, 0, list.stderr)
        XCTAssertTrue(list.stdout.contains("found in: installation prefix \(prefix)/lib/transhost/plugins"), list.stdout)
        let count = try BuildProducts.galleryDemoCount()
        XCTAssertTrue(list.stdout.contains("\(count) plugins: \(count) ok, 0 not usable"), list.stdout)
        let cc = try sh("printf '#include \"transhost.h\"\\nint main(void) { return TH_ABI_MAJOR == 1 ? 0 : 1; }\\n' > abi.c && cc $(pkg-config --cflags transhost) abi.c -o abi && ./abi")
        XCTAssertEqual(cc.status, 0, cc.stderr)
        XCTAssertEqual(try sh("man -l -Tutf8 \(prefix)/share/man/man1/transhost.1 2>/dev/null | head -1; bash -n \(prefix)/share/bash-completion/completions/transhost").status, 0)

        for (name, lang) in [("sdk-c", "c"), ("sdk-swift", "swift")] {
            let made = try sh("transhost new \(name) --lang \(lang) --dir work && work/\(name)/build.sh plugins")
            XCTAssertEqual(made.status, 0, "\(lang): \(made.stderr)")
            let v = try sh("transhost validate plugins/\(name)")
            XCTAssertEqual(v.status, 0, v.stdout + v.stderr)
            XCTAssertTrue(v.stdout.contains("\(name): 20 passed, 0 failed, 0 skipped"), v.stdout)
        }
        let run = try sh("transhost run --scenario plugins/sdk-swift/demo.json --plugins plugins --trace-only --out out")
        XCTAssertEqual(run.status, 0, run.stderr)
    }
}

/// The kit as a SwiftPM library product: an author's package depends on a checkout with
/// `.package(path:)` and builds a plugin that passes validate.
final class KitPackageTests: XCTestCase {
    func testAPackageDependingOnTheCheckoutBuildsAPluginThatPassesValidate() throws {
        _ = try BuildProducts.library("libfade-scale.so")
        let root = try BuildProducts.temporaryDirectory(self)
        // The package's identity is the last component of the path: name it "transhost".
        try FileManager.default.createSymbolicLink(atPath: root + "/transhost", withDestinationPath: BuildProducts.packageRoot)
        let pkg = root + "/author"
        let made = try BuildProducts.run(["new", "template", "--lang", "swift", "--dir", root, "-q"])
        XCTAssertEqual(made.status, 0, made.stderr)
        let fm = FileManager.default
        try fm.createDirectory(atPath: pkg + "/Sources/Slide", withIntermediateDirectories: true)
        try fm.createDirectory(atPath: pkg + "/Sources/SlideEntry/include", withIntermediateDirectories: true)
        for f in ["SlideIn.swift", "Export.swift"] { try fm.copyItem(atPath: root + "/template/Swift/" + f, toPath: pkg + "/Sources/Slide/" + f) }
        try fm.copyItem(atPath: root + "/template/Entry/entry.c", toPath: pkg + "/Sources/SlideEntry/entry.c")
        try "".write(toFile: pkg + "/Sources/SlideEntry/include/.keep", atomically: true, encoding: .utf8)
        try """
        // swift-tools-version:6.0
        import PackageDescription
        let package = Package(
            name: "author",
            products: [.library(name: "plugin", type: .dynamic, targets: ["Slide", "SlideEntry"])],
            dependencies: [.package(path: "\(root)/transhost")],
            targets: [
                .target(name: "Slide", dependencies: [.product(name: "TransHostAnimatorKit", package: "transhost")]),
                .target(name: "SlideEntry", dependencies: [.product(name: "TransHostAnimatorKit", package: "transhost")],
                        cSettings: [.define("TH_PLUGIN_NAME", to: "\\"from-spm\\""), .define("TH_PLUGIN_VERSION", to: "\\"0.1.0\\""),
                                    .unsafeFlags(["-fvisibility=hidden"])]),
            ],
            swiftLanguageModes: [.v5]
        )
        """.write(toFile: pkg + "/Package.swift", atomically: true, encoding: .utf8)
        let build = try TestProcess.run("/usr/bin/env", ["swift", "build", "--package-path", pkg])
        XCTAssertEqual(build.status, 0, build.stdout + build.stderr)
        let plugin = root + "/plugins/from-spm"
        try fm.createDirectory(atPath: plugin, withIntermediateDirectories: true)
        try fm.copyItem(atPath: pkg + "/.build/debug/libplugin.so", toPath: plugin + "/libplugin.so")
        try String(contentsOfFile: root + "/template/manifest.json", encoding: .utf8).replacingOccurrences(of: "\"template\"", with: "\"from-spm\"")
            .write(toFile: plugin + "/manifest.json", atomically: true, encoding: .utf8)
        let v = try BuildProducts.run(["validate", plugin], environment: ["TRANSHOST_CACHE": root + "/cache.json"])
        XCTAssertEqual(v.status, 0, v.stdout + v.stderr)
    }
}
