import XCTest
@testable import TransHostCore

/// Whatever a plugin builds, walks over the view tree have a bounded depth: a 100,000-deep chain
/// is refused past View.maxDepth (like a cycle) instead of exhausting the stack later.
final class DeepHierarchyTests: XCTestCase {
    func testA100000DeepChainStopsAtTheDepthLimitTopDown() {
        let engine = AnimationEngine()
        let root = View(engine: engine, frame: Rect(x: 0, y: 0, width: 10, height: 10))
        var tip = root
        var refused: String?
        for _ in 0..<100_000 {
            let v = View(engine: engine, frame: Rect(x: 0, y: 0, width: 1, height: 1))
            if let problem = tip.subviewProblem(v) { refused = problem; break }
            tip.addSubview(v)
            tip = v
        }
        XCTAssertEqual(root.height, View.maxDepth)
        XCTAssertTrue(refused?.contains("at most \(View.maxDepth) are allowed") == true, refused ?? "nothing refused")
        // Sampling the tree (what traces and renderers do) sees every level.
        XCTAssertEqual(engine.sampleTree(root).count, View.maxDepth + 1)
    }

    func testAddingDirectlyPastTheLimitChangesNothing() {
        let engine = AnimationEngine()
        var chain = View(engine: engine)
        for _ in 0..<100_000 {
            let parent = View(engine: engine)
            parent.addSubview(chain) // bottom-up: the chain below grows until it is refused
            if chain.superview == nil { break }
            chain = parent
        }
        XCTAssertEqual(chain.height, View.maxDepth)
        let outsider = View(engine: engine)
        var deepest = chain
        while let next = deepest.subviews.first { deepest = next }
        deepest.addSubview(outsider)
        XCTAssertNil(outsider.superview, "a subview past the limit is refused")
    }

    func testSampleTreePaintsParentsFirstAndChildrenBackToFront() {
        let engine = AnimationEngine()
        let root = View(engine: engine, name: "root")
        let a = View(engine: engine, name: "a"), b = View(engine: engine, name: "b"), a1 = View(engine: engine, name: "a1")
        root.addSubview(a); root.addSubview(b); a.addSubview(a1)
        let nodes = engine.sampleTree(root)
        XCTAssertEqual(nodes.map(\.view.name), ["root", "a", "a1", "b"])
        XCTAssertEqual(nodes.map(\.z), [0, 0, 0, 1])
        XCTAssertEqual(nodes.map(\.depth), [0, 1, 2, 1])
    }
}
