/// The engine's scheduled actions, as a binary min-heap on (time, scheduling order). A scripted
/// gesture schedules one action per sample; finding and removing the next one costs log n, so
/// playing n samples is O(n log n) instead of the O(n^2) of scanning a list per event.
struct EventQueue {
    struct Event {
        let time: Double
        let sequence: Int
        let action: () -> Void
        func precedes(_ o: Event) -> Bool { (time, sequence) < (o.time, o.sequence) }
    }

    private var heap: [Event] = []

    var isEmpty: Bool { heap.isEmpty }
    /// The earliest time pending.
    var nextTime: Double? { heap.first?.time }

    mutating func insert(_ e: Event) {
        heap.append(e)
        var i = heap.count - 1
        while i > 0 {
            let parent = (i - 1) / 2
            guard heap[i].precedes(heap[parent]) else { break }
            heap.swapAt(i, parent)
            i = parent
        }
    }

    /// Removes and returns every event due at or before `t`, in (time, sequence) order.
    mutating func popDue(through t: Double) -> [Event] {
        var out: [Event] = []
        while let first = heap.first, first.time <= t { out.append(popFirst()) }
        return out
    }

    private mutating func popFirst() -> Event {
        let top = heap[0]
        let last = heap.removeLast()
        if !heap.isEmpty {
            heap[0] = last
            var i = 0
            while true {
                let l = 2 * i + 1, r = l + 1
                var m = i
                if l < heap.count, heap[l].precedes(heap[m]) { m = l }
                if r < heap.count, heap[r].precedes(heap[m]) { m = r }
                if m == i { break }
                heap.swapAt(i, m)
                i = m
            }
        }
        return top
    }
}
