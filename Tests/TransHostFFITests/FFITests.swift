import XCTest
@testable import TransHostManifest
@testable import TransHostFFI

#if canImport(Glibc)
import Glibc
#endif

/// The fixture library: one function per whitelisted type returning a value derived from its
/// argument, a multi-argument configure() that stores into globals read back through getters,
/// and a wide mixed-type function whose later arguments go on the stack.
/// Written into a temp dir and compiled with `cc -shared -fPIC` once per test run.
private let fixtureSource = #"""
#include <stdint.h>
#include <stdbool.h>
#include <string.h>

int8_t   fx_int8(int8_t x)     { return (int8_t)(x - 1); }
int16_t  fx_int16(int16_t x)   { return (int16_t)(x * 2); }
int32_t  fx_int32(int32_t x)   { return -x - 1; }
int64_t  fx_int64(int64_t x)   { return x + 1; }
uint8_t  fx_uint8(uint8_t x)   { return (uint8_t)(x + 55); }
uint16_t fx_uint16(uint16_t x) { return (uint16_t)(x + 1); }
uint32_t fx_uint32(uint32_t x) { return x + 1u; }
uint64_t fx_uint64(uint64_t x) { return ~x; }
float    fx_float(float x)     { return x * 2.5f; }
double   fx_double(double x)   { return x / 4.0; }
bool     fx_bool(bool x)       { return !x; }
int      fx_int_truthy(int x)  { return x != 0; }
int32_t  fx_strlen(const char *s) { return (int32_t)strlen(s); }
uint32_t fx_fnv1a(const char *s) {
    uint32_t h = 2166136261u;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) { h ^= *p; h *= 16777619u; }
    return h;
}
uintptr_t fx_handle_plus_one(void *p) { return (uintptr_t)p + 1; }
void *fx_handle_plus_eight(void *p) { return (char *)p + 8; }
const char *fx_greeting(void) { return "hello from C"; }
const char *fx_null_string(void) { return 0; }

static double g_damping, g_velocity;
static int32_t g_count;
static bool g_flag;
static char g_name[64];
static int g_calls;

void fx_configure(double damping, double velocity, int32_t count, bool flag, const char *name) {
    g_damping = damping; g_velocity = velocity; g_count = count; g_flag = flag;
    strncpy(g_name, name, sizeof g_name - 1);
    g_name[sizeof g_name - 1] = 0;
    g_calls++;
}
double fx_get_damping(void) { return g_damping; }
double fx_get_velocity(void) { return g_velocity; }
int32_t fx_get_count(void) { return g_count; }
bool fx_get_flag(void) { return g_flag; }
const char *fx_get_name(void) { return g_name; }
int32_t fx_get_calls(void) { return g_calls; }
void fx_reset(void) { g_damping = g_velocity = 0; g_count = 0; g_flag = false; g_name[0] = 0; g_calls = 0; }

/* 21 arguments: more than the 6 integer and 8 SSE registers of the SysV x86-64 ABI. */
double fx_mix(int8_t a, uint8_t b, int16_t c, uint16_t d, int32_t e, uint32_t f, int64_t g,
              uint64_t h, float i, double j, bool k, const char *s, void *p,
              int8_t a2, double j2, double j3, double j4, double j5, double j6, double j7, double j8) {
    return a * 1.0 + b * 2.0 + c * 3.0 + d * 4.0 + e * 5.0 + f * 6.0 + (double)g * 7.0
         + (double)h * 8.0 + i * 9.0 + j * 10.0 + (k ? 11.0 : 0.0) + strlen(s) * 12.0
         + (double)(uintptr_t)p * 13.0 + a2 * 14.0 + j2 * 15.0 + j3 * 16.0 + j4 * 17.0
         + j5 * 18.0 + j6 * 19.0 + j7 * 20.0 + j8 * 21.0;
}
"""#

final class FFITests: XCTestCase {
    /// dlopen handle of the compiled fixture, shared by all tests (compiled once).
    nonisolated(unsafe) private static var library: UnsafeMutableRawPointer?
    nonisolated(unsafe) private static var setupError: String?
    nonisolated(unsafe) private static var tempDir: String?

    override class func setUp() {
        super.setUp()
        do {
            library = try compileFixture()
        } catch {
            setupError = "\(error)"
        }
    }

    override class func tearDown() {
        // The fixture is plain C, so closing it is safe (DESIGN.md: never dlclose Swift code).
        if let library { dlclose(library) }
        library = nil
        if let tempDir { try? FileManager.default.removeItem(atPath: tempDir) }
        super.tearDown()
    }

    private static func compileFixture() throws -> UnsafeMutableRawPointer {
        let dir = FileManager.default.temporaryDirectory
            .appendingPathComponent("transhost-ffi-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        tempDir = dir.path
        let source = dir.appendingPathComponent("ffi_fixture.c")
        let output = dir.appendingPathComponent("libffi_fixture.so")
        try fixtureSource.write(to: source, atomically: true, encoding: .utf8)

        let cc = Process()
        cc.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        cc.arguments = ["cc", "-shared", "-fPIC", "-O1", "-std=c11", "-Wall", "-Werror", "-o", output.path, source.path]
        let stderr = Pipe()
        cc.standardError = stderr
        try cc.run()
        let diagnostics = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        cc.waitUntilExit()
        guard cc.terminationStatus == 0 else {
            throw FFIError(symbolName: "-", message: "cc failed (\(cc.terminationStatus)): \(diagnostics)")
        }
        guard let handle = dlopen(output.path, RTLD_NOW | RTLD_LOCAL) else {
            throw FFIError(symbolName: "-", message: "dlopen failed: \(String(cString: dlerror()))")
        }
        return handle
    }

    private func fn(_ name: String, _ parameters: [ParameterType], _ returnType: ParameterType?,
                    file: StaticString = #filePath, line: UInt = #line) throws -> FFIFunction {
        guard let library = Self.library else {
            throw XCTSkip("fixture unavailable: \(Self.setupError ?? "unknown")")
        }
        guard let address = dlsym(library, name) else {
            XCTFail("dlsym(\(name)) failed", file: file, line: line)
            throw FFIError(symbolName: name, message: "missing")
        }
        return try FFIFunction(symbolName: name, address: address, parameters: parameters, returnType: returnType)
    }

    override func setUpWithError() throws {
        // A missing compiler or a broken fixture is a failure, not a silent pass.
        if let error = Self.setupError { XCTFail("fixture setup failed: \(error)") }
    }

    // MARK: - One function per whitelisted type

    func testSignedIntegersNarrowWithSign() throws {
        let f8 = try fn("fx_int8", [.int8], .int8)
        XCTAssertEqual(try f8.call([.int(-4)]), .int(-5))
        XCTAssertEqual(try f8.call([.int(-128)]), .int(127), "C wraps -128 - 1 to 127")
        XCTAssertEqual(try f8.call([.int(0)]), .int(-1))

        let f16 = try fn("fx_int16", [.int16], .int16)
        XCTAssertEqual(try f16.call([.int(-1000)]), .int(-2000))
        XCTAssertEqual(try f16.call([.int(16384)]), .int(-32768))

        let f32 = try fn("fx_int32", [.int32], .int32)
        XCTAssertEqual(try f32.call([.int(41)]), .int(-42))
        XCTAssertEqual(try f32.call([.int(-2_147_483_648)]), .int(2_147_483_647))

        let f64 = try fn("fx_int64", [.int64], .int64)
        XCTAssertEqual(try f64.call([.int(9_000_000_000_000_000_000)]), .int(9_000_000_000_000_000_001))
        XCTAssertEqual(try f64.call([.int(-9_000_000_000_000_000_000)]), .int(-8_999_999_999_999_999_999))
        XCTAssertEqual(try f64.call([.int(Int64.max - 1)]), .int(Int64.max))
    }

    func testUnsignedIntegersDoNotSignExtend() throws {
        let f8 = try fn("fx_uint8", [.uint8], .uint8)
        XCTAssertEqual(try f8.call([.uint(200)]), .uint(255))
        XCTAssertEqual(try f8.call([.uint(201)]), .uint(0), "C wraps 256 to 0")

        let f16 = try fn("fx_uint16", [.uint16], .uint16)
        XCTAssertEqual(try f16.call([.uint(65534)]), .uint(65535))

        let f32 = try fn("fx_uint32", [.uint32], .uint32)
        XCTAssertEqual(try f32.call([.uint(3_000_000_000)]), .uint(3_000_000_001))
        XCTAssertEqual(try f32.call([.uint(UInt64(UInt32.max))]), .uint(0))

        let f64 = try fn("fx_uint64", [.uint64], .uint64)
        XCTAssertEqual(try f64.call([.uint(0)]), .uint(UInt64.max))
        XCTAssertEqual(try f64.call([.uint(0xFFFF_0000_0000_0000)]), .uint(0x0000_FFFF_FFFF_FFFF))
    }

    func testFloatingPoint() throws {
        let ff = try fn("fx_float", [.float], .float)
        XCTAssertEqual(try ff.call([.float(1.5)]), .float(3.75))
        XCTAssertEqual(try ff.call([.float(-0.25)]), .float(-0.625))

        let fd = try fn("fx_double", [.double], .double)
        XCTAssertEqual(try fd.call([.double(1.0)]), .double(0.25))
        XCTAssertEqual(try fd.call([.double(-1e300)]), .double(-2.5e299))
    }

    func testBoolFromBoolAndIntReturns() throws {
        let fb = try fn("fx_bool", [.bool], .bool)
        XCTAssertEqual(try fb.call([.bool(true)]), .bool(false))
        XCTAssertEqual(try fb.call([.bool(false)]), .bool(true))

        let fi = try fn("fx_int_truthy", [.int32], .bool)
        XCTAssertEqual(try fi.call([.int(7)]), .bool(true))
        XCTAssertEqual(try fi.call([.int(0)]), .bool(false))
    }

    func testStringsArriveAsUTF8() throws {
        let len = try fn("fx_strlen", [.string], .int32)
        XCTAssertEqual(try len.call([.string("")]), .int(0))
        XCTAssertEqual(try len.call([.string("damping")]), .int(7))
        XCTAssertEqual(try len.call([.string("héllo→")]), .int(Int64("héllo→".utf8.count)))

        let sum = try fn("fx_fnv1a", [.string], .uint32)
        let text = "spring ✓ ünïcode"
        var h: UInt32 = 2_166_136_261
        for byte in text.utf8 { h = (h ^ UInt32(byte)) &* 16_777_619 }
        XCTAssertEqual(try sum.call([.string(text)]), .uint(UInt64(h)))

        let greet = try fn("fx_greeting", [], .string)
        XCTAssertEqual(try greet.call([]), .string("hello from C"))

        let null = try fn("fx_null_string", [], .string)
        XCTAssertThrowsError(try null.call([])) { error in
            XCTAssertTrue("\(error)".contains("fx_null_string"), "\(error)")
            XCTAssertTrue("\(error)".contains("NULL"), "\(error)")
        }
    }

    func testHandlesArePointers() throws {
        let plusOne = try fn("fx_handle_plus_one", [.handle], .uint64)
        XCTAssertEqual(try plusOne.call([.handle(0x1000)]), .uint(0x1001))
        XCTAssertEqual(try plusOne.call([.handle(0)]), .uint(1))
        let big = UInt(0x7FFF_1234_5678_9AB0)
        XCTAssertEqual(try plusOne.call([.handle(big)]), .uint(UInt64(big) + 1))

        let plusEight = try fn("fx_handle_plus_eight", [.handle], .handle)
        XCTAssertEqual(try plusEight.call([.handle(0x2000)]), .handle(0x2008))
    }

    // MARK: - Multi-argument calls

    func testConfigureReceivesArgumentsInOrder() throws {
        try fn("fx_reset", [], nil).call([]).map { XCTFail("void returned \($0)") }
        let configure = try fn("fx_configure", [.double, .double, .int32, .bool, .string], nil)
        let result = try configure.call([.double(0.75), .double(-12.5), .int(-3), .bool(true), .string("swing")])
        XCTAssertNil(result, "void returns nil")

        XCTAssertEqual(try fn("fx_get_damping", [], .double).call([]), .double(0.75))
        XCTAssertEqual(try fn("fx_get_velocity", [], .double).call([]), .double(-12.5))
        XCTAssertEqual(try fn("fx_get_count", [], .int32).call([]), .int(-3))
        XCTAssertEqual(try fn("fx_get_flag", [], .bool).call([]), .bool(true))
        XCTAssertEqual(try fn("fx_get_name", [], .string).call([]), .string("swing"))
        XCTAssertEqual(try fn("fx_get_calls", [], .int32).call([]), .int(1))

        // The copied string lived only for the call; the plugin copied it. A second call replaces all.
        _ = try configure.call([.double(0.1), .double(2), .int(7), .bool(false), .string("bounce")])
        XCTAssertEqual(try fn("fx_get_damping", [], .double).call([]), .double(0.1))
        XCTAssertEqual(try fn("fx_get_velocity", [], .double).call([]), .double(2))
        XCTAssertEqual(try fn("fx_get_count", [], .int32).call([]), .int(7))
        XCTAssertEqual(try fn("fx_get_flag", [], .bool).call([]), .bool(false))
        XCTAssertEqual(try fn("fx_get_name", [], .string).call([]), .string("bounce"))
        XCTAssertEqual(try fn("fx_get_calls", [], .int32).call([]), .int(2))
    }

    func testConfigureFromSpecsWithDefaultsAndOverrides() throws {
        let configure = try fn("fx_configure", [.double, .double, .int32, .bool, .string], nil)
        let specs = [
            ParameterSpec(name: "damping", type: .double, defaultValue: .double(0.8), min: 0, max: 1),
            ParameterSpec(name: "velocity", type: .double, defaultValue: .int(0)),
            ParameterSpec(name: "count", type: .int32, defaultValue: .double(3), min: 1, max: 10),
            ParameterSpec(name: "flag", type: .bool, defaultValue: .bool(false)),
            ParameterSpec(name: "name", type: .string, defaultValue: .string("default")),
        ]
        _ = try configure.call(specs: specs, overrides: ["velocity": "-4.5", "flag": "true"])
        XCTAssertEqual(try fn("fx_get_damping", [], .double).call([]), .double(0.8))
        XCTAssertEqual(try fn("fx_get_velocity", [], .double).call([]), .double(-4.5))
        XCTAssertEqual(try fn("fx_get_count", [], .int32).call([]), .int(3))
        XCTAssertEqual(try fn("fx_get_flag", [], .bool).call([]), .bool(true))
        XCTAssertEqual(try fn("fx_get_name", [], .string).call([]), .string("default"))

        XCTAssertThrowsError(try configure.call(specs: specs, overrides: ["damping": "1.7"])) { error in
            XCTAssertEqual((error as? ParameterError)?.inPlugin("X").message,
                           #"parameter "damping" of plugin X: 1.7 is out of range [0, 1]"#)
        }
        XCTAssertThrowsError(try configure.call(specs: specs, overrides: ["dampnig": "0.5"])) { error in
            XCTAssertEqual((error as? ParameterError)?.parameter, "dampnig")
        }
    }

    func testManyMixedArgumentsIncludingStackArguments() throws {
        let mix = try fn("fx_mix", [.int8, .uint8, .int16, .uint16, .int32, .uint32, .int64, .uint64,
                                    .float, .double, .bool, .string, .handle,
                                    .int8, .double, .double, .double, .double, .double, .double, .double], .double)
        let values: [ParameterValue] = [
            .int(-1), .uint(2), .int(-3), .uint(4), .int(-5), .uint(6), .int(-7), .uint(8),
            .float(0.5), .double(-0.25), .bool(true), .string("abc"), .handle(16),
            .int(-2), .double(1), .double(2), .double(3), .double(4), .double(5), .double(6), .double(7),
        ]
        let expected: Double = -1 * 1 + 2 * 2 + -3 * 3 + 4 * 4 + -5 * 5 + 6 * 6 + -7 * 7 + 8 * 8
            + 0.5 * 9 + -0.25 * 10 + 11 + 3 * 12 + 16 * 13 + -2 * 14
            + 1 * 15 + 2 * 16 + 3 * 17 + 4 * 18 + 5 * 19 + 6 * 20 + 7 * 21
        XCTAssertEqual(try mix.call(values), .double(expected))
    }

    // MARK: - Refused calls

    func testArgumentCountMismatchThrows() throws {
        let configure = try fn("fx_configure", [.double, .double, .int32, .bool, .string], nil)
        XCTAssertThrowsError(try configure.call([.double(0.5), .double(1)])) { error in
            let e = error as? FFIError
            XCTAssertEqual(e?.symbolName, "fx_configure")
            XCTAssertEqual(e?.message, "native entry point void fx_configure(double, double, int32, bool, string) takes 5 arguments but was called with 2")
        }
        let f8 = try fn("fx_int8", [.int8], .int8)
        XCTAssertThrowsError(try f8.call([]))
        XCTAssertThrowsError(try f8.call([.int(1), .int(2)]))
    }

    func testWrongValueTypesAndWidthsAreRefusedNotTruncated() throws {
        let f8 = try fn("fx_uint8", [.uint8], .uint8)
        XCTAssertThrowsError(try f8.call([.uint(300)])) { error in
            XCTAssertEqual("\(error)", "native entry point uint8 fx_uint8(uint8), argument 1: 300 is out of range for uint8 [0, 255]")
        }
        XCTAssertThrowsError(try f8.call([.int(-1)]))
        XCTAssertThrowsError(try f8.call([.string("1")])) { error in
            XCTAssertTrue("\(error)".contains(#""1" is a string, not a uint8"#), "\(error)")
        }
        // Lossless cross-case integers are accepted.
        XCTAssertEqual(try f8.call([.int(10)]), .uint(65))

        let fd = try fn("fx_double", [.double], .double)
        XCTAssertThrowsError(try fd.call([.bool(true)]))
        XCTAssertThrowsError(try fd.call([.double(.nan)]))
        XCTAssertEqual(try fd.call([.int(2)]), .double(0.5))

        let fs = try fn("fx_strlen", [.string], .int32)
        XCTAssertThrowsError(try fs.call([.string("a\u{0}b")])) { error in
            XCTAssertTrue("\(error)".contains("NUL"), "\(error)")
        }
        XCTAssertThrowsError(try fs.call([.handle(1)]))
    }

    func testManifestTypeNamesOutsideWhitelistAreRefused() throws {
        guard let library = Self.library, let address = dlsym(library, "fx_int32") else {
            throw XCTSkip("fixture unavailable")
        }
        for bad in ["struct spring", "...", "long double", "int", "void*", "callback"] {
            XCTAssertThrowsError(try FFIFunction(symbolName: "fx_int32", address: address,
                                                 parameterTypeNames: [bad], returnTypeName: "int32")) { error in
                let message = "\(error)"
                XCTAssertTrue(message.contains("fx_int32"), message)
                XCTAssertTrue(message.contains("not supported"), message)
                XCTAssertTrue(message.contains("int8, int16"), message)
            }
        }
        XCTAssertThrowsError(try FFIFunction(symbolName: "fx_int32", address: address,
                                             parameterTypeNames: ["int32"], returnTypeName: "struct x")) { error in
            XCTAssertTrue("\(error)".contains("return type"), "\(error)")
        }
        let ok = try FFIFunction(symbolName: "fx_int32", address: address, parameterTypeNames: ["int32"], returnTypeName: "int32")
        XCTAssertEqual(try ok.call([.int(1)]), .int(-2))
        let void = try FFIFunction(symbolName: "fx_int32", address: address, parameterTypeNames: ["int32"], returnTypeName: "void")
        XCTAssertNil(void.returnType)
    }

    func testEveryWhitelistedTypePreparesAsParameterAndReturn() throws {
        guard let library = Self.library, let address = dlsym(library, "fx_reset") else {
            throw XCTSkip("fixture unavailable")
        }
        for type in ParameterType.allCases {
            let f = try FFIFunction(symbolName: "t", address: address, parameters: [type, type], returnType: type)
            XCTAssertEqual(f.parameters, [type, type])
        }
    }

    // MARK: - Parsing --param overrides (no native code involved)

    func testParseAcceptsEachType() throws {
        XCTAssertEqual(try ParameterSpec(name: "d", type: .double).parse("0.5"), .double(0.5))
        XCTAssertEqual(try ParameterSpec(name: "d", type: .double).parse(" -2e3 "), .double(-2000))
        XCTAssertEqual(try ParameterSpec(name: "f", type: .float).parse("0.1"), .float(0.1))
        XCTAssertEqual(try ParameterSpec(name: "i", type: .int8).parse("-128"), .int(-128))
        XCTAssertEqual(try ParameterSpec(name: "i", type: .int64).parse("-9223372036854775808"), .int(Int64.min))
        XCTAssertEqual(try ParameterSpec(name: "i", type: .int32).parse("0x10"), .int(16))
        XCTAssertEqual(try ParameterSpec(name: "u", type: .uint8).parse("200"), .uint(200))
        XCTAssertEqual(try ParameterSpec(name: "u", type: .uint64).parse("18446744073709551615"), .uint(UInt64.max))
        XCTAssertEqual(try ParameterSpec(name: "b", type: .bool).parse("true"), .bool(true))
        XCTAssertEqual(try ParameterSpec(name: "b", type: .bool).parse("OFF"), .bool(false))
        XCTAssertEqual(try ParameterSpec(name: "b", type: .bool).parse("1"), .bool(true))
        XCTAssertEqual(try ParameterSpec(name: "s", type: .string).parse(" any thing "), .string(" any thing "))
        XCTAssertEqual(try ParameterSpec(name: "h", type: .handle).parse("0x1000"), .handle(0x1000))
        XCTAssertEqual(try ParameterSpec(name: "h", type: .handle).parse("0"), .handle(0))
    }

    func testParseRefusesOutOfRange() {
        let damping = ParameterSpec(name: "damping", type: .double, defaultValue: .double(0.5), min: 0, max: 1)
        XCTAssertThrowsError(try damping.parse("1.7")) { error in
            let e = error as? ParameterError
            XCTAssertEqual(e?.parameter, "damping")
            XCTAssertEqual(e?.reason, "1.7 is out of range [0, 1]")
            XCTAssertEqual(e?.message, #"parameter "damping": 1.7 is out of range [0, 1]"#)
            XCTAssertEqual(e?.inPlugin("X").message, #"parameter "damping" of plugin X: 1.7 is out of range [0, 1]"#)
        }
        XCTAssertThrowsError(try damping.parse("-0.01"))
        XCTAssertEqual(try damping.parse("0"), .double(0), "bounds are inclusive")
        XCTAssertEqual(try damping.parse("1"), .double(1))

        let atLeast = ParameterSpec(name: "count", type: .int32, min: 1)
        XCTAssertThrowsError(try atLeast.parse("0")) { error in
            XCTAssertEqual("\(error)", #"parameter "count": 0 is out of range (minimum 1)"#)
        }
        let atMost = ParameterSpec(name: "scale", type: .float, max: 2.5)
        XCTAssertThrowsError(try atMost.parse("3")) { error in
            XCTAssertEqual("\(error)", #"parameter "scale": 3 is out of range (maximum 2.5)"#)
        }
    }

    func testParseRefusesWrongTypes() {
        XCTAssertThrowsError(try ParameterSpec(name: "damping", type: .double).parse("abc")) { error in
            XCTAssertEqual("\(error)", #"parameter "damping": "abc" is not a double (expected a decimal number such as 0.5)"#)
        }
        XCTAssertThrowsError(try ParameterSpec(name: "damping", type: .double).parse(""))
        XCTAssertThrowsError(try ParameterSpec(name: "damping", type: .double).parse("nan"))
        XCTAssertThrowsError(try ParameterSpec(name: "damping", type: .double).parse("inf"))
        XCTAssertThrowsError(try ParameterSpec(name: "level", type: .uint8).parse("300")) { error in
            XCTAssertEqual("\(error)", #"parameter "level": 300 is out of range for uint8 [0, 255]"#)
        }
        XCTAssertThrowsError(try ParameterSpec(name: "level", type: .uint8).parse("-1")) { error in
            XCTAssertEqual("\(error)", #"parameter "level": -1 is out of range for uint8 [0, 255]"#)
        }
        XCTAssertThrowsError(try ParameterSpec(name: "n", type: .int8).parse("99999999999999999999999")) { error in
            XCTAssertTrue("\(error)".contains("out of range for int8 [-128, 127]"), "\(error)")
        }
        XCTAssertThrowsError(try ParameterSpec(name: "n", type: .int32).parse("1.5")) { error in
            XCTAssertEqual("\(error)", #"parameter "n": "1.5" is not an int32 (expected a whole number in [-2147483648, 2147483647])"#)
        }
        XCTAssertThrowsError(try ParameterSpec(name: "f", type: .float).parse("1e39")) { error in
            XCTAssertTrue("\(error)".contains("does not fit in a float"), "\(error)")
        }
        XCTAssertThrowsError(try ParameterSpec(name: "flag", type: .bool).parse("maybe")) { error in
            XCTAssertEqual("\(error)", #"parameter "flag": "maybe" is not a bool (expected true or false)"#)
        }
        XCTAssertThrowsError(try ParameterSpec(name: "h", type: .handle).parse("-1"))
        XCTAssertThrowsError(try ParameterSpec(name: "h", type: .handle).parse("view"))
    }

    // MARK: - Manifest defaults

    func testDefaultsAreValidatedAndCanonicalised() throws {
        let damping = ParameterSpec(name: "damping", type: .double, defaultValue: .double(0.5), min: 0, max: 1)
        XCTAssertNoThrow(try damping.validateDeclaration())
        XCTAssertEqual(try damping.resolve(override: nil), .double(0.5))
        XCTAssertEqual(try damping.resolve(override: "0.25"), .double(0.25))

        // JSON numbers arrive as int or double; they become the parameter's case when exact.
        XCTAssertEqual(try ParameterSpec(name: "c", type: .int32).validate(.double(3)), .int(3))
        XCTAssertEqual(try ParameterSpec(name: "v", type: .double).validate(.int(1)), .double(1))
        XCTAssertEqual(try ParameterSpec(name: "u", type: .uint16).validate(.int(7)), .uint(7))
        XCTAssertEqual(try ParameterSpec(name: "h", type: .handle).validate(.int(0)), .handle(0))
        // A float default at its float bound is inside it.
        XCTAssertEqual(try ParameterSpec(name: "f", type: .float, max: 0.1).validate(.double(0.1)), .float(0.1))

        let badDefault = ParameterSpec(name: "damping", type: .double, defaultValue: .double(1.5), min: 0, max: 1)
        XCTAssertThrowsError(try badDefault.validateDeclaration()) { error in
            XCTAssertEqual("\(error)", #"parameter "damping": default 1.5 is out of range [0, 1]"#)
        }
        XCTAssertThrowsError(try badDefault.resolve(override: nil))
        XCTAssertEqual(try badDefault.resolve(override: "0.5"), .double(0.5), "an override replaces a bad default")

        XCTAssertThrowsError(try ParameterSpec(name: "damping", type: .double).validate(.string("x"))) { error in
            XCTAssertEqual("\(error)", #"parameter "damping": "x" is a string, not a double"#)
        }
        XCTAssertThrowsError(try ParameterSpec(name: "c", type: .int32).validate(.double(2.5)))
        XCTAssertThrowsError(try ParameterSpec(name: "c", type: .uint8).validate(.int(256)))
        XCTAssertThrowsError(try ParameterSpec(name: "flag", type: .bool).validate(.int(1)))

        XCTAssertThrowsError(try ParameterSpec(name: "x", type: .string, min: 0).validateDeclaration())
        XCTAssertThrowsError(try ParameterSpec(name: "x", type: .double, min: 2, max: 1).validateDeclaration()) { error in
            XCTAssertEqual("\(error)", #"parameter "x": min 2 is greater than max 1"#)
        }
        XCTAssertThrowsError(try ParameterSpec(name: "x", type: .double).resolve(override: nil)) { error in
            XCTAssertTrue("\(error)".contains("no default"), "\(error)")
        }
    }

    func testParameterTypeManifestNames() throws {
        for type in ParameterType.allCases {
            XCTAssertEqual(try ParameterType(manifestName: type.rawValue), type)
        }
        XCTAssertThrowsError(try ParameterType(manifestName: "struct point")) { error in
            XCTAssertTrue("\(error)".contains("no structs by value, no varargs"), "\(error)")
        }
    }
}
