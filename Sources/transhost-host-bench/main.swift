// transhost-host-bench: how fast the plugin host discovers and loads plugins, against a floor.
//
//   swift build -c release --product transhost-host-bench
//   .build/release/transhost-host-bench [--plugins N] [--repeat R]
//
// Generates N plugins (default 1000) in a temporary directory: one small C plugin compiled once
// with cc, copied N times with its name patched to bench-plugin-0000 ... (same length, so the
// library stays valid), each in its own directory with a manifest. Then times, through the
// library's scan API (PluginScanner.scan with a ScanCache):
//   - list cold: no cache file (every manifest parsed, every library inspected as ELF)
//   - list warm: the cache file present and valid
//   - load one plugin: dlopen + init (what a playback worker does, the default), and validation in
//     a spawned child process + dlopen + init (what `run --isolation none` does)
//   - the gallery (`transhost run`, pictures included) with --isolation worker and none, when the
//     transhost binary and its staged plugins are beside this benchmark, and its ratio to
//     `transhost run --trace-only`
//   - `transhost run fade-scale` end to end (and with --trace-only) against a C program that
//     dlopens the plugin and writes an empty file; the peak RSS of each demo at --scale 3
// and compares with a floor, a minimal C program (compiled here at run time) that only
// dlopens the same N files (and one). Prints medians of R runs (default 5) and the ratios.
// Figures, not a test: nothing is asserted.
import Foundation
import TransHostPluginHost
import TransHostSupport
import TransHostDiscovery
import TransHostManifest

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("transhost-host-bench: \(message)\n".utf8))
    exit(1)
}

var count = 1000
var repeats = 5
var argv = CommandLine.arguments.dropFirst()
while let a = argv.popFirst() {
    switch a {
    case "--plugins": count = Int(argv.popFirst() ?? "") ?? 0
    case "--repeat": repeats = Int(argv.popFirst() ?? "") ?? 0
    case "-h", "--help":
        print("usage: transhost-host-bench [--plugins N] [--repeat R]   (defaults 1000 and 5)")
        exit(0)
    default: fail("unknown option \(a); see --help")
    }
}
guard (1...9999).contains(count), repeats >= 1 else { fail("--plugins must be 1-9999 and --repeat at least 1") }

let includeDir: String = {
    var dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    while !FileManager.default.fileExists(atPath: dir.appendingPathComponent("Package.swift").path) {
        dir = dir.deletingLastPathComponent()
        if dir.path == "/" { fail("cannot find the package root (for Sources/CTransHost/include) from \(#filePath)") }
    }
    return dir.appendingPathComponent("Sources/CTransHost/include").path
}()

func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

func median(_ xs: [Double]) -> Double {
    let s = xs.sorted()
    return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
}

@discardableResult
func sh(_ args: [String]) -> String {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    p.arguments = args
    let out = Pipe(), err = Pipe()
    p.standardOutput = out
    p.standardError = err
    do { try p.run() } catch { fail("cannot run \(args[0]): \(error)") }
    let o = out.fileHandleForReading.readDataToEndOfFile()
    let e = err.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    guard p.terminationStatus == 0 else { fail("\(args.joined(separator: " ")) failed:\n\(String(decoding: e, as: UTF8.self))") }
    return String(decoding: o, as: UTF8.self)
}

// 1. Generate the plugins.
let root = FileManager.default.temporaryDirectory.appendingPathComponent("transhost-bench-\(getpid())").path
let pluginsDir = root + "/plugins"
try? FileManager.default.removeItem(atPath: root)
try! FileManager.default.createDirectory(atPath: pluginsDir, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(atPath: root) }

let templateName = "bench-plugin-0000"
let pluginSource = """
#include "transhost.h"
static const th_host_api *host;
static double duration(const th_animator *s, th_context *c) { (void)s; (void)c; return 0.25; }
static void done(int f, void *u) { (void)f; host->context_complete_transition((th_context *)u, 1); }
static void none(void *u) { (void)u; }
static void animate(const th_animator *s, th_context *c) {
    th_animation_params p = { sizeof(th_animation_params), duration(s, c), 0, 0 };
    host->view_add_subview(host->context_container(c), host->context_view(c, TH_KEY_TO));
    host->animate(&p, none, done, c);
}
static const th_animator animator = { sizeof(th_animator), "\(templateName)", duration, animate, 0, 0 };
static int init(const th_host_api *h) { host = h; return h->abi_major == TH_ABI_MAJOR ? 0 : 1; }
static void deinit(void) { host = 0; }
static const th_animator *get(const char *id) {
    const char *a = animator.id;
    while (*id && *id == *a) { id++; a++; }
    return (*id == 0 && *a == 0) ? &animator : 0;
}
TH_EXPORT const th_plugin_entry transhost_plugin_entry = {
    TH_ABI_MAJOR, TH_ABI_MINOR, sizeof(th_plugin_entry), "\(templateName)", "1.0.0", init, deinit, get };
"""
try! pluginSource.write(toFile: root + "/plugin.c", atomically: true, encoding: .utf8)
sh(["cc", "-O2", "-shared", "-fPIC", "-fvisibility=hidden", "-std=c11", "-I", includeDir, "-o", root + "/plugin.so", root + "/plugin.c"])
let templateBytes = [UInt8](try! Data(contentsOf: URL(fileURLWithPath: root + "/plugin.so")))
let needle = Array(templateName.utf8)

func patched(_ name: String) -> [UInt8] {
    var b = templateBytes
    let repl = Array(name.utf8)
    var i = 0
    while i + needle.count <= b.count {
        if b[i] == needle[0] && Array(b[i..<i + needle.count]) == needle {
            b.replaceSubrange(i..<i + needle.count, with: repl)
            i += needle.count
        } else { i += 1 }
    }
    return b
}

var libraries: [String] = []
var manifests: [String] = []
let genStart = now()
for i in 0..<count {
    let name = "bench-plugin-" + String(repeating: "0", count: 4 - String(i).count) + String(i)
    let dir = pluginsDir + "/" + name
    try! FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    let lib = dir + "/lib\(name).so"
    try! FileIO.writeAtomically(lib, patched(name))
    let manifest = """
    {"format": "transhost-manifest/1", "name": "\(name)", "version": "1.0.0", "abi": "\(HostABI.text)", "library": "lib\(name).so",
     "animators": [{"id": "\(name)", "routes": [{"container": "navigation", "operations": ["push"], "from": "From\(i)", "to": "To\(i)"}]}]}
    """
    try! FileIO.writeAtomically(dir + "/manifest.json", manifest)
    libraries.append(lib)
    manifests.append(dir + "/manifest.json")
}
let genTime = now() - genStart

// 2. list cold and warm through the scan API.
let search = PluginSearchPath(entries: [.init(path: pluginsDir, origin: "--plugins", required: true)])
let cacheFile = root + "/scan-cache.json"
var cold: [Double] = [], warm: [Double] = []
for _ in 0..<repeats {
    unlink(cacheFile)
    let t0 = now()
    let scan = try! PluginScanner.scan(search, registry: nil, cache: ScanCache(path: cacheFile))
    cold.append(now() - t0)
    guard scan.usable.count == count else { fail("cold scan found \(scan.usable.count) usable plugins, not \(count): \(scan.records.first { $0.status != .ok }?.status.reason ?? "")") }
}
for _ in 0..<repeats {
    let t0 = now()
    let scan = try! PluginScanner.scan(search, registry: nil, cache: ScanCache(path: cacheFile))
    warm.append(now() - t0)
    guard scan.usable.count == count else { fail("warm scan found \(scan.usable.count) usable plugins") }
}

// 3. Load latency of one plugin: validate in a child + dlopen + init (a different plugin each time,
// since a second dlopen of the same file costs nothing).
var validateTimes: [Double] = [], loadTimes: [Double] = []
for k in 0..<min(repeats, count) {
    let m = try! PluginManifest.load(file: manifests[count - 1 - k])
    let t0 = now()
    guard case .passed = PluginValidator.validate(m) else { fail("validation of \(m.name) failed") }
    let t1 = now()
    do { _ = try PluginLoader.load(m, bridge: nil) } catch { fail("loading \(m.name) failed: \(error)") }
    let t2 = now()
    validateTimes.append(t1 - t0)
    loadTimes.append(t2 - t1)
}
let loadOne = zip(validateTimes, loadTimes).map { $0 + $1 }

// 4. The floor: a C program that only dlopens the files.
let floorSource = """
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec / 1e9; }
int main(int argc, char **argv) {
    /* argv[1]: a file with one library path per line. Prints the seconds the dlopens took. */
    FILE *f = fopen(argv[1], "r");
    if (!f || argc < 2) return 2;
    static char paths[10000][512];
    int n = 0;
    while (n < 10000 && fgets(paths[n], sizeof paths[n], f)) { paths[n][strcspn(paths[n], "\\n")] = 0; n++; }
    fclose(f);
    double t0 = now();
    for (int i = 0; i < n; i++) if (!dlopen(paths[i], RTLD_NOW | RTLD_LOCAL)) { fprintf(stderr, "%s\\n", dlerror()); return 1; }
    printf("%.9f\\n", now() - t0);
    return 0;
}
"""
try! floorSource.write(toFile: root + "/floor.c", atomically: true, encoding: .utf8)
sh(["cc", "-O2", "-o", root + "/floor", root + "/floor.c", "-ldl"])
try! (libraries.joined(separator: "\n") + "\n").write(toFile: root + "/all.txt", atomically: true, encoding: .utf8)
var floorAll: [Double] = [], floorOne: [Double] = []
for k in 0..<repeats {
    floorAll.append(Double(sh([root + "/floor", root + "/all.txt"]).trimmingCharacters(in: .whitespacesAndNewlines)) ?? .nan)
    try! (libraries[k % count] + "\n").write(toFile: root + "/one.txt", atomically: true, encoding: .utf8)
    floorOne.append(Double(sh([root + "/floor", root + "/one.txt"]).trimmingCharacters(in: .whitespacesAndNewlines)) ?? .nan)
}

let config: String = {
    #if DEBUG
    return "debug"
    #else
    return "release"
    #endif
}()

// 5. The gallery with plugins in workers and in the host: `transhost run` of the first-party
// demos (pictures included), with the binary and the plugins staged beside this benchmark.
let transhostBinary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("transhost").path
// Debug renders are too slow for a figure worth printing (and for the smoke test).
let galleryReady = config == "release" && FileManager.default.fileExists(atPath: transhostBinary)
    && FileManager.default.fileExists(atPath: URL(fileURLWithPath: transhostBinary).deletingLastPathComponent().appendingPathComponent("plugins").path)
// Each mode also with --trace-only, where playing (and so the workers' cost) weighs most.
var gallery: [String: [Double]] = [:], galleryCPU: [String: [Double]] = [:]
/// CPU seconds (user + system) of every reaped child so far: a figure a busy machine does not
/// distort the way it distorts wall time.
func childCPU() -> Double {
    var u = rusage()
    getrusage(RUSAGE_CHILDREN.rawValue, &u)
    return Double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + Double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6
}
if galleryReady {
    let out = root + "/gallery"
    for k in 0..<(4 * max(3, repeats)) {
        let mode = k % 2 == 0 ? "worker" : "none", traceOnly = (k / 2) % 2 == 1
        try? FileManager.default.removeItem(atPath: out)
        let t0 = now(), c0 = childCPU()
        sh([transhostBinary, "run", "--out", out, "-q", "--isolation", mode] + (traceOnly ? ["--trace-only"] : []))
        gallery[mode + (traceOnly ? " trace-only" : ""), default: []].append(now() - t0)
        galleryCPU[mode + (traceOnly ? " trace-only" : ""), default: []].append(childCPU() - c0)
    }
}

// 6. One short run end to end (`transhost run fade-scale`: two 0.25 s transitions, pictures
// included, and with --trace-only), against a floor: a C program that dlopens the plugin's
// library and writes an empty file. And the peak RSS of every demo at @3x. Each figure is one
// spawned process, reaped with wait4 for its CPU time and peak RSS (its workers included).
struct ChildFigures { var wall: Double; var cpu: Double; var maxRSSKiB: Int }
func spawnAndWait(_ args: [String]) -> ChildFigures {
    var pid: pid_t = 0
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    var cargs = args.map { strdup($0) } + [nil]
    let t0 = now()
    let rc = posix_spawn(&pid, args[0], &actions, nil, &cargs, environ)
    for p in cargs { free(p) }
    posix_spawn_file_actions_destroy(&actions)
    guard rc == 0 else { fail("cannot run \(args[0]): \(String(cString: strerror(rc)))") }
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
    let wall = now() - t0
    let cpu = Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    return ChildFigures(wall: wall, cpu: cpu, maxRSSKiB: usage.ru_maxrss)
}
var shortRun: [String: [ChildFigures]] = [:]
var demoRSS: [(String, Int)] = []
let stagedPlugins = URL(fileURLWithPath: transhostBinary).deletingLastPathComponent().appendingPathComponent("plugins").path
if galleryReady {
    let runFloorSource = """
    #include <dlfcn.h>
    #include <stdio.h>
    int main(int argc, char **argv) {
        /* argv[1]: a plugin library; argv[2]: the file to create. */
        if (argc < 3 || !dlopen(argv[1], RTLD_NOW | RTLD_LOCAL)) return 1;
        FILE *f = fopen(argv[2], "w");
        return f && fclose(f) == 0 ? 0 : 1;
    }
    """
    try! runFloorSource.write(toFile: root + "/run-floor.c", atomically: true, encoding: .utf8)
    sh(["cc", "-O2", "-o", root + "/run-floor", root + "/run-floor.c", "-ldl"])
    let library = stagedPlugins + "/fade-scale/libfade-scale.so"
    let out = root + "/short"
    for _ in 0..<max(3, repeats) {
        shortRun["floor", default: []].append(spawnAndWait([root + "/run-floor", library, root + "/empty"]))
        shortRun["run", default: []].append(spawnAndWait([transhostBinary, "run", "fade-scale", "-q", "--out", out]))
        shortRun["trace-only", default: []].append(spawnAndWait([transhostBinary, "run", "fade-scale", "-q", "--trace-only", "--out", out]))
    }
    let demos = ((try? FileManager.default.contentsOfDirectory(atPath: stagedPlugins)) ?? []).sorted()
    for name in demos where FileManager.default.fileExists(atPath: stagedPlugins + "/" + name + "/demo.json") {
        let f = spawnAndWait([transhostBinary, "run", name, "-q", "--scale", "3", "--out", root + "/rss-" + name])
        demoRSS.append((name, f.maxRSSKiB))
    }
}

// 7. Report.
func ms(_ s: Double) -> String { String(format: "%9.3f ms", s * 1000) }
func ratio(_ a: Double, _ b: Double) -> String { String(format: "%7.2fx", a / b) }
print("transhost-host-bench: \(count) plugins (\(templateBytes.count)-byte library each), \(repeats) runs, medians; \(config) build")
print("  generated in \(ms(genTime)) under \(root)")
print("")
print("  list cold (no cache)          \(ms(median(cold)))   floor: dlopen \(count) files \(ms(median(floorAll)))   ratio \(ratio(median(cold), median(floorAll)))")
print("  list warm (cache present)     \(ms(median(warm)))   floor: dlopen \(count) files \(ms(median(floorAll)))   ratio \(ratio(median(warm), median(floorAll)))")
print("  load one, in a worker (dlopen+init; the default) \(ms(median(loadTimes)))   floor: dlopen 1 file \(ms(median(floorOne)))   ratio \(ratio(median(loadTimes), median(floorOne)))")
print("  load one, --isolation none (validation child + dlopen + init) \(ms(median(loadOne)))   ratio \(ratio(median(loadOne), median(floorOne)))")
print("    of which validation child (spawned transhost) \(ms(median(validateTimes)))")
print("  warm/cold                     \(ratio(median(warm), median(cold)))")
print("  per plugin: cold \(String(format: "%.1f", median(cold) / Double(count) * 1e6)) us, warm \(String(format: "%.1f", median(warm) / Double(count) * 1e6)) us, dlopen floor \(String(format: "%.1f", median(floorAll) / Double(count) * 1e6)) us")
if galleryReady {
    for suffix in ["", " trace-only"] {
        let w = median(gallery["worker" + suffix] ?? [.nan]), n = median(gallery["none" + suffix] ?? [.nan])
        let cw = median(galleryCPU["worker" + suffix] ?? [.nan]), cn = median(galleryCPU["none" + suffix] ?? [.nan])
        print("  gallery\(suffix.isEmpty ? "" : " --trace-only"), --isolation worker: wall \(ms(w)), CPU \(ms(cw));  --isolation none: wall \(ms(n)), CPU \(ms(cn));  ratio wall \(ratio(w, n)), CPU \(ratio(cw, cn))   (\(gallery["worker" + suffix]?.count ?? 0) runs each, interleaved)")
    }
    let w = median(gallery["worker"] ?? [.nan]), t = median(gallery["worker trace-only"] ?? [.nan])
    let cw = median(galleryCPU["worker"] ?? [.nan]), ct = median(galleryCPU["worker trace-only"] ?? [.nan])
    print("  gallery / gallery --trace-only (the default, workers): wall \(ratio(w, t)), CPU \(ratio(cw, ct))   target: at most 5x")
    print("")
    func med(_ k: String, _ f: (ChildFigures) -> Double) -> Double { median((shortRun[k] ?? []).map(f)) }
    let floorWall = med("floor") { $0.wall }
    print("  run fade-scale (two 0.25 s transitions, GIFs, sheets), process end to end, median of \(shortRun["run"]?.count ?? 0):")
    print("    transhost run fade-scale       wall \(ms(med("run") { $0.wall })), CPU \(ms(med("run") { $0.cpu })), peak RSS \(Int(med("run") { Double($0.maxRSSKiB) }) / 1024) MiB   ratio to floor \(ratio(med("run") { $0.wall }, floorWall))   target: at most 100 ms")
    print("    ... --trace-only               wall \(ms(med("trace-only") { $0.wall })), CPU \(ms(med("trace-only") { $0.cpu }))   ratio to floor \(ratio(med("trace-only") { $0.wall }, floorWall))")
    print("    floor: C program, dlopen + write an empty file: wall \(ms(floorWall))")
    print("")
    print("  peak RSS of `transhost run NAME --scale 3` (workers included; target: at most 120 MiB each):")
    for (name, kib) in demoRSS { print("    \(name)\(String(repeating: " ", count: max(0, 16 - name.count))) \(String(format: "%6.1f", Double(kib) / 1024)) MiB") }
} else {
    print("  gallery: skipped (a release build with the plugins staged beside \(transhostBinary): TRANSHOST_CONFIG=release ./scripts/setup)")
}
