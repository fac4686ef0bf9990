import CRenderKernels
import Dispatch
import TransHostSupport
#if canImport(Glibc)
import Glibc
#endif

/// Runs a run's picture work (each transition's export, each trace) on every core, while the
/// raster memory of what runs at once stays within a budget: a task starts, in order, when the
/// weights of the running tasks and its own fit in `budget`, or when nothing runs (so a task
/// larger than the budget still runs, alone). What each task writes does not depend on the
/// order, so the bytes out are the same whatever the schedule; only peak memory and wall time
/// depend on it.
///
/// The caller reads results in order with `wait(_:)` while later tasks still run, so a run can
/// report its first job before its last one is rendered. Tasks may also be added while earlier
/// ones run (`open`, `add`, `close`): a run renders its first scenario while the next ones
/// are still being played.
public final class ExportPool: @unchecked Sendable {
    public struct Task {
        /// The raster bytes the task may hold at once (RasterBudget.estimate); 0 for a task that
        /// holds no rasters.
        public var weight: Int
        /// Run on a thread of the pool's own beside the cores' workers, in order with the other
        /// such tasks: for a task that mostly waits for the disk (a trace written and synced),
        /// which then neither holds a core's worker nor waits for one.
        public var beside: Bool
        public var body: () -> Void
        public init(weight: Int, beside: Bool = false, _ body: @escaping () -> Void) {
            self.weight = weight; self.beside = beside; self.body = body
        }
    }

    /// Guards the fields below; signalled whenever a task starts, ends or is added.
    private let state = ConditionLock()
    private var tasks: [Task] = []
    private var next = 0
    /// The next task for the beside thread (see Task.beside); `next` skips those.
    private var nextBeside = 0
    private var besideRunning = false
    private var running = 0
    private var runningWeight = 0
    private var done: [Bool] = []
    private var cancelled = false
    /// No task will be added (workers finish once the list is done).
    private var closed = false
    private var opened = false
    private let budget: Int
    private let threads: Int

    /// - budget: raster bytes the running tasks may hold together.
    /// - threads: at most this many tasks at once (default: one per core).
    public init(budget: Int, threads: Int = ExportPool.cores) {
        self.budget = budget
        self.threads = max(1, threads)
    }

    /// The cores this process may use.
    public static var cores: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

    /// Starts `tasks`, the only ones; returns at once. Call once, instead of `open`.
    public func start(_ tasks: [Task]) {
        open(threads: min(threads, tasks.count))
        _ = add(tasks)
        close()
    }

    /// Starts the workers, which wait for tasks from `add` until `close` (which must come, or
    /// they wait for ever). Call once.
    public func open() { open(threads: threads) }

    private func open(threads n: Int) {
        state.lock()
        precondition(!opened, "an export pool is opened once")
        opened = true
        state.unlock()
        for _ in 0..<n { DispatchQueue.global().async { self.work() } }
        // Its own thread, not the global queue's: that queue may give no more threads than
        // there are cores, all of them waiting in `work`.
        if let t = RenderThread.start({ self.work(beside: true) }) {
            pthread_detach(t)
            besideRunning = true
        }
    }

    /// Queues `tasks` after those already added; returns the index of the first (what `wait`
    /// takes). They run in order, as the budget allows.
    public func add(_ tasks: [Task]) -> Int {
        state.lock()
        precondition(!closed, "tasks added to a closed export pool")
        let first = self.tasks.count
        self.tasks += tasks
        // After `cancel` nothing more runs: what is added counts as skipped.
        done += Array(repeating: cancelled, count: tasks.count)
        if cancelled { next = self.tasks.count; nextBeside = self.tasks.count }
        // Without the beside thread, its tasks run on the workers like any other.
        if !besideRunning { for i in first..<self.tasks.count { self.tasks[i].beside = false } }
        state.broadcast()
        state.unlock()
        return first
    }

    /// No more tasks: workers end when the queue is done.
    public func close() {
        state.lock()
        closed = true
        state.broadcast()
        state.unlock()
    }

    /// Blocks until task `i` has run (or was skipped by `cancel`).
    public func wait(_ i: Int) {
        state.lock()
        while !done[i] { state.wait() }
        state.unlock()
    }

    /// Blocks until every task added has run or been skipped.
    public func waitAll() {
        state.lock()
        let count = tasks.count
        state.unlock()
        for i in 0..<count { wait(i) }
    }

    /// Skips the tasks that have not started; running ones finish.
    public func cancel() {
        state.lock()
        cancelled = true
        state.broadcast()
        state.unlock()
    }

    /// A worker of the cores (`beside` false) or the beside thread: runs its kind of task, in
    /// order, until the pool is closed and they are all done.
    private func work(beside: Bool = false) {
        state.lock()
        while true {
            if cancelled {
                while next < tasks.count { if !done[next] && !tasks[next].beside { done[next] = true }; next += 1 }
                while nextBeside < tasks.count { if tasks[nextBeside].beside { done[nextBeside] = true }; nextBeside += 1 }
                state.broadcast()
            }
            if beside {
                while nextBeside < tasks.count && !tasks[nextBeside].beside { nextBeside += 1 }
            } else {
                while next < tasks.count && tasks[next].beside { next += 1 }
            }
            let cursor = beside ? nextBeside : next
            guard cursor < tasks.count else {
                if closed || cancelled { break }
                state.wait()
                continue
            }
            let w = beside ? 0 : tasks[cursor].weight
            if !beside && running > 0 && runningWeight + w > budget {
                state.wait()
                continue
            }
            let i = cursor
            if beside { nextBeside += 1 } else { next += 1; running += 1; runningWeight += w }
            let body = tasks[i].body
            state.unlock()
            if beside {
                body()
            } else {
                // While every core runs a task, a frame's composites stay on their own thread.
                th_render_busy_enter()
                body()
                th_render_busy_leave()
            }
            state.lock()
            if !beside { running -= 1; runningWeight -= w }
            done[i] = true
            state.broadcast()
        }
        state.unlock()
    }
}
