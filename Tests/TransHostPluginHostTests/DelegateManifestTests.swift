import XCTest
@testable import TransHostPluginHost
@testable import TransHostRouting
@testable import TransHostManifest
import TransHostSupport

/// Manifests may route to delegates (ABI 1.2) beside or instead of animators; old manifests
/// read as before.
final class DelegateManifestTests: XCTestCase {
    let file = "plugins/x/manifest.json"

    func parse(_ text: String) throws -> PluginManifest {
        try PluginManifest(json: try JSONParser.parse(bytes: Array(text.utf8)), file: file)
    }

    func testAManifestMayHaveOnlyDelegatesAndTheirRulesAreMarked() throws {
        let m = try parse("""
        {"name": "x", "version": "1", "abi": "1.2", "library": "libx.so",
         "delegates": [{"id": "main", "routes": [{"container": "navigation"}, {"container": "modal", "to": "Photo"}]}]}
        """)
        XCTAssertEqual(m.animators, [])
        XCTAssertEqual(m.delegates.map(\.id), ["main"])
        let rules = PluginRuntime.rules(from: [(m, nil)])
        XCTAssertEqual(rules.count, 2)
        XCTAssertTrue(rules.allSatisfy(\.isDelegate))
        XCTAssertEqual(rules[1].label, "x/delegate main [plugins/x/manifest.json delegates[0].routes[1]]")
    }

    func testAnimatorsAndDelegatesTogetherKeepDeclarationOrder() throws {
        let m = try parse("""
        {"name": "x", "version": "1", "abi": "1.2", "library": "libx.so",
         "animators": [{"id": "a", "routes": [{"container": "tab"}]}],
         "delegates": [{"id": "d", "routes": [{"container": "navigation"}]}]}
        """)
        let rules = PluginRuntime.rules(from: [(m, nil)])
        XCTAssertEqual(rules.map(\.animator), ["a", "d"])
        XCTAssertEqual(rules.map(\.isDelegate), [false, true])
    }

    func testNeitherAnimatorsNorDelegatesIsRefusedWithTheField() {
        XCTAssertThrowsError(try parse(#"{"name": "x", "version": "1", "abi": "1.2", "library": "libx.so", "animators": []}"#)) { e in
            XCTAssertTrue("\(e)".contains("\"animators\""), "\(e)")
            XCTAssertTrue("\(e)".contains("delegates"), "\(e)")
        }
        XCTAssertThrowsError(try parse(#"{"name": "x", "version": "1", "abi": "1.2", "library": "libx.so", "delegates": [{"id": "d"}, {"id": "d"}]}"#)) { e in
            XCTAssertTrue("\(e)".contains("duplicate delegate id \"d\""), "\(e)")
        }
    }
}
