import TransHostManifest
import TransHostSupport

/// Stages built plugins where `transhost` finds them (`<bin>/plugins/<name>/`): for each plugin
/// source directory holding a `manifest.json`, the manifest (read with the project's own reader,
/// so a broken one stops the set-up with its error), the library it names from the build
/// products directory, and the plugin's other `.json` and `.png` files (demo scenarios, images).
/// Every file is written atomically. `scripts/setup` runs it through `transhost stage-plugins`.
public enum PluginStaging {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Stages every plugin under `sources` into `destination`, taking libraries from
    /// `products`; returns the staged plugin directories.
    public static func stage(sources: String, products: String, destination: String) throws -> [String] {
        guard FileIO.isDirectory(sources) else { throw Failure(description: "plugin sources \(sources) is not a directory") }
        var staged: [String] = []
        for sub in try FileIO.list(sources).sorted() {
            let dir = PathUtil.join(sources, sub)
            let manifestPath = PathUtil.join(dir, "manifest.json")
            guard FileIO.isDirectory(dir), FileIO.exists(manifestPath) else { continue }
            let manifest = try PluginManifest.load(file: manifestPath)
            let library = PathUtil.join(products, manifest.library)
            guard FileIO.exists(library) else {
                throw Failure(description: "\(library) was not built; is the product of plugin \(manifest.name) (\"library\": \"\(manifest.library)\" in \(manifestPath)) declared in Package.swift?")
            }
            let target = PathUtil.join(destination, sub)
            try copy(manifestPath, to: PathUtil.join(target, "manifest.json"))
            try copy(library, to: PathUtil.join(target, manifest.library))
            for extra in try FileIO.list(dir).sorted() where extra != "manifest.json" && (extra.hasSuffix(".json") || extra.hasSuffix(".png")) {
                try copy(PathUtil.join(dir, extra), to: PathUtil.join(target, extra))
            }
            staged.append(target)
        }
        return staged
    }

    /// Copies one file atomically (its parent directories are created).
    public static func copy(_ from: String, to: String) throws {
        try FileIO.writeAtomically(to, try FileIO.readAll(from))
    }
}
