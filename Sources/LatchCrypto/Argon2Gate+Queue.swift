extension Argon2Gate {
    /// The gate's bookkeeping, free of threads and clocks so its order can be tested as a value: the
    /// computations running, and the waiters queued per source.
    ///
    /// Sources take turns in round robin, each source's waiters in arrival order. A source that
    /// arrives with nothing queued and has not been admitted lately (a client sending a request now
    /// and then) is *fresh* and is served before the sources taking turns, as a sparse flow is in
    /// FQ-CoDel (RFC 8290 § 4.1). Lately means within the last `slots` admissions: a flood, which
    /// is admitted over and over, is never fresh, even when its queue runs empty for a moment.
    /// Once served, a fresh source joins the turns, even with nothing left queued.
    struct Queue<Waiter: AnyObject> {
        /// Slots of the gate: how many admissions count as lately.
        let slots: Int
        /// Computations holding a slot.
        var running = 0
        /// Waiters queued, over all sources.
        private(set) var waiting = 0
        /// Each source's waiters, oldest first; a source without waiters has no entry.
        private var waiters: [String: [Waiter]] = [:]
        /// Fresh sources, in the order they arrived; each has waiters.
        private var fresh: [String] = []
        /// The sources taking turns, from ``next`` on and around; one may have no waiters left, and
        /// is dropped when its turn comes.
        private var turns: [String] = []
        /// The index in ``turns`` of the source served next among them.
        private var next = 0
        /// Admissions so far.
        private var admissions = 0
        /// The sources admitted within the last ``slots`` admissions, with the number of theirs.
        private var recent: [String: Int] = [:]

        /// A queue for a gate of `slots` slots.
        init(slots: Int) {
            self.slots = max(1, slots)
        }

        /// How many waiters `source` has queued.
        func waiting(from source: String) -> Int { waiters[source]?.count ?? 0 }

        /// The most waiters one source may keep while `sources` sources wait: the waiting places
        /// divided among them, rounded up, and at least one.
        static func share(of places: Int, sources: Int) -> Int {
            max(1, (places + sources - 1) / max(1, sources))
        }

        /// Queues `waiter` behind `source`'s earlier waiters; a source neither fresh nor taking
        /// turns becomes fresh. Then, while more than one source has waiters, refuses every
        /// source's waiters beyond its share of the `maximumWaiters` places
        /// (``share(of:sources:)``), newest first; and while more than `maximumWaiters` wait,
        /// refuses the newest waiter of the longest queue (`source`'s own among equals).
        /// - Returns: the waiters refused, to be woken with a refusal; `waiter` itself may be among
        ///   them.
        mutating func enqueue(_ waiter: Waiter, source: String, maximumWaiters: Int) -> [Waiter] {
            if waiters[source] == nil && !turns.contains(source) {
                if recent[source] == nil {
                    fresh.append(source)
                } else {
                    turns.insert(source, at: next)  // last in the current round
                    next += 1
                }
            }
            waiters[source, default: []].append(waiter)
            waiting += 1
            var refused: [Waiter] = []
            if waiters.count > 1 {
                let share = Self.share(of: maximumWaiters, sources: waiters.count)
                for (source, queue) in waiters where queue.count > share {
                    for _ in share..<queue.count { refused.append(take(newest: true, of: source)) }
                }
            }
            while waiting > maximumWaiters, let longest = waiters.max(by: { $0.value.count < $1.value.count }) {
                let victim = longest.value.count > waiting(from: source) ? longest.key : source
                refused.append(take(newest: true, of: victim))
            }
            return refused
        }

        /// Counts an admission of `source` to a slot, queued or not.
        mutating func admitted(_ source: String) {
            admissions += 1
            recent[source] = admissions
            recent = recent.filter { admissions - $0.value < slots }
        }

        /// Takes the oldest waiter of the first fresh source, or else of the source whose turn it
        /// is, moves the turn on and counts the admission.
        mutating func dequeue() -> Waiter? {
            if !fresh.isEmpty {
                let source = fresh.removeFirst()
                let first = take(newest: false, of: source)
                turns.insert(source, at: next)  // last in the current round
                next += 1
                admitted(source)
                return first
            }
            while !turns.isEmpty {
                if next >= turns.count { next = 0 }
                let source = turns[next]
                guard waiters[source] != nil else {
                    turns.remove(at: next)  // its turn came with nothing queued
                    continue
                }
                let first = take(newest: false, of: source)
                next += 1  // even with nothing left queued: dropped when its turn comes again
                if next >= turns.count { next = 0 }
                admitted(source)
                return first
            }
            return nil
        }

        /// Removes and returns the oldest or the newest waiter of `source`, which has at least one; a
        /// fresh source left without waiters is no longer fresh.
        private mutating func take(newest: Bool, of source: String) -> Waiter {
            var queue = waiters[source] ?? []
            let waiter = newest ? queue.removeLast() : queue.removeFirst()
            waiters[source] = queue.isEmpty ? nil : queue
            waiting -= 1
            if queue.isEmpty { fresh.removeAll { $0 == source } }
            return waiter
        }
    }
}
