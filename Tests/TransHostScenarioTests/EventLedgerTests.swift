import TransHostCoordinators
import TransHostScenario
import XCTest

/// Every event is kept once, and the run's views of them agree.
final class EventLedgerTests: XCTestCase {
    func testALoadFailureIsRecordedOncePerPlugin() {
        let ledger = EventLedger()
        ledger.loadFailure(plugin: "p", message: "p is broken; default used for push A -> B")
        ledger.loadFailure(plugin: "p", message: "p is broken; default used for pop B -> A")
        ledger.loadFailure(plugin: "q", message: "q is broken")
        XCTAssertEqual(ledger.events.count, 2)
        XCTAssertEqual(ledger.events.first?.message, "p is broken; default used for push A -> B")
    }

    func testBreachesAreFoundByTheirTransitionAndNeverAsWarnings() {
        let ledger = EventLedger()
        let early = ContractBreach(plugin: "p", kind: "invalid-value", message: "in init")
        let late = ContractBreach(plugin: "p", kind: "completed-twice", message: "again")
        ledger.breach(early, transition: nil)
        ledger.warn("a refused push")
        ledger.breach(late, transition: 0)
        let result = RunResult(scenario: .builtInDefault, fps: 60, transitions: [], finalStack: [], finalSelected: nil,
                               finalPresented: [], events: ledger.events)
        XCTAssertEqual(result.breaches, [early, late])
        XCTAssertEqual(result.unattributedBreaches, [early])
        XCTAssertEqual(result.breaches(ofTransition: 0), [late])
        XCTAssertEqual(result.warnings, ["a refused push"])
    }
}
