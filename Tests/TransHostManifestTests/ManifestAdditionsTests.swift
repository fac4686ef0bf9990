import XCTest
@testable import TransHostRouting
@testable import TransHostManifest
import TransHostSupport

/// `interactions` and `configure` in manifests: accepted when right, refused with the file and
/// the field when wrong.
final class ManifestAdditionsTests: XCTestCase {
    let file = "plugins/x/manifest.json"

    func manifest(_ extra: String, route: String = "") -> String {
        """
        {"name": "x", "version": "1", "abi": "1.0", "library": "libx.so",
         "animators": [{"id": "a", "routes": [{"container": "navigation"\(route)}]}]\(extra)}
        """
    }

    func parse(_ text: String) throws -> PluginManifest {
        try PluginManifest(json: try JSONParser.parse(bytes: Array(text.utf8)), file: file)
    }

    func assertError(_ text: String, _ expected: String, line: UInt = #line) {
        XCTAssertThrowsError(try parse(text), line: line) { e in
            XCTAssertEqual("\(e)", expected, line: line)
        }
    }

    func testInteractionsAreReadAndRoutesMayNameThem() throws {
        let m = try parse(manifest(#", "interactions": [{"id": "edge", "kind": "pan", "axis": "y", "finishThreshold": 0.3}]"#,
                                   route: #", "interaction": "edge""#))
        XCTAssertEqual(m.interactions, [.init(id: "edge", kind: "pan", axis: "y", finishThreshold: 0.3)])
        XCTAssertEqual(m.animators[0].routes[0].interaction, "edge")
        let d = try parse(manifest(#", "interactions": [{"id": "e", "kind": "pan"}]"#))
        XCTAssertEqual(d.interactions[0].axis, "x")
        XCTAssertEqual(d.interactions[0].finishThreshold, 0.5)
    }

    func testARouteNamingAnUndeclaredInteractionIsRefused() {
        assertError(manifest("", route: #", "interaction": "edge""#),
                    #"plugins/x/manifest.json: field "animators[0].routes[0].interaction": "edge" names no interaction of this manifest (the manifest declares no "interactions"); add it to "interactions" or fix the id"#)
        assertError(manifest(#", "interactions": [{"id": "pinch", "kind": "pan"}]"#, route: #", "interaction": "edge""#),
                    #"plugins/x/manifest.json: field "animators[0].routes[0].interaction": "edge" names no interaction of this manifest (declared interactions: pinch); add it to "interactions" or fix the id"#)
    }

    func testBadInteractionsNameTheField() {
        assertError(manifest(#", "interactions": [{"id": "e", "kind": "rotate"}]"#),
                    #"plugins/x/manifest.json: field "interactions[0].kind": "rotate" is not a supported interaction kind; use one of pan"#)
        assertError(manifest(#", "interactions": [{"id": "e", "kind": "pan", "axis": "z"}]"#),
                    #"plugins/x/manifest.json: field "interactions[0].axis": "z" is not x or y"#)
        assertError(manifest(#", "interactions": [{"id": "e", "kind": "pan", "finishThreshold": 1.5}]"#),
                    #"plugins/x/manifest.json: field "interactions[0].finishThreshold": expected a number between 0 and 1 (exclusive), found 1.5"#)
        assertError(manifest(#", "interactions": [{"id": "e", "kind": "pan"}, {"id": "e", "kind": "pan"}]"#),
                    #"plugins/x/manifest.json: field "interactions[1].id": duplicate interaction id "e""#)
    }

    func testConfigureIsReadWithTypedDefaults() throws {
        let m = try parse(manifest(#"""
        , "configure": {"symbol": "x_configure", "parameters": [
            {"name": "damping", "type": "double", "default": 0.7, "min": 0, "max": 1, "doc": "spring damping"},
            {"name": "count", "type": "int32", "default": 3},
            {"name": "mask", "type": "uint8", "default": 255},
            {"name": "label", "type": "string", "default": "hi"},
            {"name": "on", "type": "bool", "default": true}]}
        """#))
        let c = try XCTUnwrap(m.configure)
        XCTAssertEqual(c.symbol, "x_configure")
        XCTAssertEqual(c.parameters.map(\.name), ["damping", "count", "mask", "label", "on"])
        XCTAssertEqual(c.parameters[0], ParameterSpec(name: "damping", type: .double, defaultValue: .double(0.7), min: 0, max: 1, doc: "spring damping"))
        XCTAssertEqual(c.parameters[1].defaultValue, .int(3))
        XCTAssertEqual(c.parameters[2].defaultValue, .uint(255))
        XCTAssertEqual(c.parameters[3].defaultValue, .string("hi"))
        XCTAssertEqual(c.parameters[4].defaultValue, .bool(true))
    }

    func testBadConfigureDeclarationsNameTheFileAndField() {
        assertError(manifest(#", "configure": {"parameters": []}"#),
                    #"plugins/x/manifest.json: field "configure.symbol": is required"#)
        assertError(manifest(#", "configure": {"symbol": "x-configure"}"#),
                    #"plugins/x/manifest.json: field "configure.symbol": "x-configure" is not a C function name (letters, digits and '_', not starting with a digit)"#)
        assertError(manifest(#", "configure": {"symbol": "c", "parameters": [{"name": "v", "type": "struct point"}]}"#),
                    #"plugins/x/manifest.json: field "configure.parameters[0].type": type "struct point" is not supported for native entry points; allowed types are int8, int16, int32, int64, uint8, uint16, uint32, uint64, float, double, bool, string, handle (no structs by value, no varargs)"#)
        assertError(manifest(#", "configure": {"symbol": "c", "parameters": [{"name": "d", "type": "double", "default": 2, "min": 0, "max": 1}]}"#),
                    #"plugins/x/manifest.json: field "configure.parameters[0].default": parameter "d": default 2.0 is out of range [0, 1]"#)
        assertError(manifest(#", "configure": {"symbol": "c", "parameters": [{"name": "d", "type": "double", "min": 2, "max": 1}]}"#),
                    #"plugins/x/manifest.json: field "configure.parameters[0].min": parameter "d": min 2 is greater than max 1"#)
        assertError(manifest(#", "configure": {"symbol": "c", "parameters": [{"name": "s", "type": "string", "max": 1}]}"#),
                    #"plugins/x/manifest.json: field "configure.parameters[0].min": parameter "s": min/max are only allowed on numeric parameters, not on a string"#)
        assertError(manifest(#", "configure": {"symbol": "c", "parameters": [{"name": "n", "type": "int8", "default": 300}]}"#),
                    #"plugins/x/manifest.json: field "configure.parameters[0].default": parameter "n": default 300 is out of range for int8 [-128, 127]"#)
        assertError(manifest(#", "configure": {"symbol": "c", "parameters": [{"name": "a", "type": "int8"}, {"name": "a", "type": "int8"}]}"#),
                    #"plugins/x/manifest.json: field "configure.parameters[1].name": duplicate parameter name "a""#)
        assertError(manifest(#", "configure": {"symbol": "c", "parameters": [{"name": "a.b", "type": "int8"}]}"#),
                    #"plugins/x/manifest.json: field "configure.parameters[0].name": "a.b" is not a valid parameter name (letters, digits and '_', not starting with a digit)"#)
    }
}
