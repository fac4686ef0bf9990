import TransHostManifest
import TransHostSupport
#if canImport(Glibc)
import Glibc
#endif

/// A new plugin project, as `transhost new NAME --lang c|swift` writes it: an animator that
/// passes `transhost validate` as generated (a slide-in for push and its pop, interactive
/// cancels restored), its manifest, a demo scenario, a README and a `build.sh` that builds it
/// out of tree against the installed SDK (pkg-config) or a checkout (`TRANSHOST_SRC`).
///
/// The plugin's name is written once, in manifest.json: the build script reads it (and the
/// version) from there and hands both to the entry as macros, and the library has a fixed file
/// name, so renaming the plugin is one edit.
public struct PluginProject: Sendable {
    public enum Language: String, CaseIterable, Sendable { case c, swift }

    public struct Failure: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    public let name: String
    public let language: Language

    public init(name: String, language: Language) throws {
        guard PluginManifest.isValidName(name) else {
            throw Failure(description: "\"\(name)\" is not a valid plugin name: use 1-64 characters from a-z, 0-9, '-', '_' and '.', starting with a letter or digit")
        }
        self.name = name
        self.language = language
    }

    /// The files, by path relative to the project directory, and whether each is executable.
    public var files: [(path: String, text: String, executable: Bool)] {
        var out: [(String, String, Bool)] = [
            ("manifest.json", manifest, false),
            ("demo.json", Self.demo, false),
            ("README.md", readme, false),
            ("build.sh", Self.buildScript(language), true),
        ]
        switch language {
        case .c: out.append(("plugin.c", Self.cSource, false))
        case .swift:
            out.append(("Swift/SlideIn.swift", Self.swiftAnimator, false))
            out.append(("Swift/Export.swift", Self.swiftExport, false))
            out.append(("Entry/entry.c", Self.swiftEntry, false))
        }
        return out
    }

    /// Writes the project into `directory` (created; it must not exist or be empty) and
    /// returns the paths written.
    @discardableResult
    public func write(into directory: String) throws -> [String] {
        if FileIO.exists(directory) {
            guard FileIO.isDirectory(directory) else { throw Failure(description: "\(directory) exists and is not a directory; choose another --dir or name") }
            let present = (try? FileIO.list(directory)) ?? []
            guard present.isEmpty else {
                throw Failure(description: "\(directory) already exists and is not empty (it holds \(present.sorted().prefix(3).joined(separator: ", "))); choose another --dir or name")
            }
        }
        var written: [String] = []
        for f in files {
            let path = PathUtil.join(directory, f.path)
            do {
                try FileIO.makeDirectories(PathUtil.dirname(path))
                try FileIO.writeAtomically(path, f.text)
                if f.executable { _ = chmod(path, 0o755) }
            } catch {
                throw Failure(description: "could not write \(path): \(error)")
            }
            written.append(path)
        }
        return written
    }

    var manifest: String {
        """
        {
          "format": "transhost-manifest/1",
          "name": "\(name)",
          "version": "0.1.0",
          "abi": "\(HostABI.text)",
          "library": "libplugin.so",
          "language": "\(language.rawValue)",
          "description": "The to-view slides in from the right over the dimmed from-view; the pop slides it back out.",
          "animators": [
            {
              "id": "slide-in",
              "routes": [
                { "container": "navigation", "operations": ["push"], "from": "ListController", "to": "DetailController" }
              ]
            }
          ],
          "configure": {
            "symbol": "slide_in_configure",
            "parameters": [
              { "name": "duration", "type": "double", "default": 0.4, "min": 0.05, "max": 10, "doc": "seconds" },
              { "name": "dimmed_alpha", "type": "double", "default": 0.5, "min": 0, "max": 1, "doc": "the covered view's alpha at the end of a push" }
            ]
          }
        }

        """
    }

    static let demo = """
    {
      "format": "transhost-scenario/1",
      "name": "demo",
      "device": "iphone-5",
      "types": {"ListController": "UIViewController", "DetailController": "UIViewController"},
      "controllers": {
        "list": {"type": "ListController", "view": {"background": "#efeff4",
          "subviews": [{"name": "title", "frame": [0, 20, 320, 44], "text": {"string": "List", "size": 17, "color": "#000000", "alignment": "center"}}]}},
        "detail": {"type": "DetailController", "view": {"background": "#ff9500",
          "subviews": [{"name": "title", "frame": [0, 20, 320, 44], "text": {"string": "Detail", "size": 17, "color": "#ffffff", "alignment": "center"}}]}}
      },
      "root": {"container": "navigation", "stack": ["list"]},
      "script": [
        {"action": "push", "controller": "detail"},
        {"action": "pop"},
        {"action": "push", "controller": "detail", "gesture": {"samples": [[0.1, 40], [0.3, 100]], "release": [0.4, 110]}}
      ]
    }

    """
}
