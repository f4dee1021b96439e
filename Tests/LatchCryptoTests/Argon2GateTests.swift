import Dispatch
import Foundation
import LatchLocking
import Testing

@testable import LatchCrypto

/// The gate's order and refusals, on its queue as a value (no threads, no clocks), and once through
/// the gate itself.
@Suite struct Argon2GateTests {
    /// A waiter told apart by its name.
    final class Ticket: CustomStringConvertible {
        let description: String
        init(_ name: String) { description = name }
    }

    typealias Queue = Argon2Gate.Queue<Ticket>

    /// A queue whose tickets are named `source-1`, `source-2`, … in the order each source queues them.
    struct Harness {
        var queue = Queue(slots: 2)
        private var issued: [String: Int] = [:]

        /// Queues `count` tickets for `source`; returns the names refused.
        mutating func enqueue(_ source: String, count: Int = 1, maximumWaiters: Int = 64) -> [String] {
            (1...count).flatMap { _ in
                issued[source, default: 0] += 1
                let ticket = Ticket("\(source)-\(issued[source]!)")
                return queue.enqueue(ticket, source: source, maximumWaiters: maximumWaiters).map { $0.description }
            }
        }

        /// Dequeues one ticket.
        mutating func dequeue() -> String? { queue.dequeue()?.description }

        /// Dequeues everything, returning the names in serving order.
        mutating func drain() -> [String] {
            var order: [String] = []
            while let next = dequeue() { order.append(next) }
            return order
        }
    }

    @Test func oneSourceIsServedInArrivalOrderAndNeverRefusedWithinTheBound() {
        var harness = Harness()
        var refused: [String] = []
        for _ in 0..<40 { refused += harness.enqueue("a") }
        #expect(refused.isEmpty)
        #expect(harness.drain() == (1...40).map { "a-\($0)" })
        #expect(harness.queue.waiting == 0)
        #expect(harness.dequeue() == nil)
    }

    @Test func freshSourcesGoFirstThenEveryoneTakesTurns() {
        var harness = Harness()
        #expect(harness.enqueue("a", count: 3).isEmpty)
        #expect(harness.dequeue() == "a-1")  // "a" has been served: it takes turns from now on
        #expect(harness.enqueue("b", count: 2).isEmpty)
        #expect(harness.enqueue("c").isEmpty)
        // "b" and "c" arrived with nothing queued: served first, in arrival order, then in turn.
        #expect(harness.drain() == ["b-1", "c-1", "a-2", "b-2", "a-3"])
    }

    @Test func aSourceInTheTurnsIsNotFresh() {
        var harness = Harness()
        #expect(harness.enqueue("flood", count: 4).isEmpty)
        #expect(harness.dequeue() == "flood-1")
        #expect(harness.enqueue("user").isEmpty)
        #expect(harness.dequeue() == "user-1")  // fresh: ahead of the flood
        #expect(harness.enqueue("user").isEmpty)  // still in the round it joined: not fresh
        #expect(harness.drain() == ["flood-2", "user-2", "flood-3", "flood-4"])
    }

    @Test func aFloodWhoseQueueRanEmptyIsNotFresh() {
        var harness = Harness()
        #expect(harness.enqueue("flood").isEmpty)
        #expect(harness.dequeue() == "flood-1")
        #expect(harness.dequeue() == nil)  // the flood's turn came with nothing queued
        #expect(harness.enqueue("flood").isEmpty)  // admitted lately: it takes turns
        #expect(harness.enqueue("user").isEmpty)
        #expect(harness.drain() == ["user-1", "flood-2"])
    }

    @Test func aFloodKeepsItsShareOfTheQueueWhenAnotherSourceArrives() {
        var harness = Harness()
        #expect(harness.enqueue("flood", count: 8, maximumWaiters: 8).isEmpty)
        #expect(harness.dequeue() == "flood-1")
        #expect(harness.enqueue("flood", maximumWaiters: 8).isEmpty)  // alone: up to the bound
        // Two sources share the 8 places, 4 each: the flood's newest go.
        #expect(harness.enqueue("user", maximumWaiters: 8) == ["flood-9", "flood-8", "flood-7", "flood-6"])
        #expect(harness.enqueue("flood", maximumWaiters: 8) == ["flood-10"])
        #expect(harness.drain() == ["user-1", "flood-2", "flood-3", "flood-4", "flood-5"])
        #expect(harness.enqueue("flood", count: 8, maximumWaiters: 8).isEmpty)  // alone again
    }

    @Test func shares() {
        #expect(Queue.share(of: 128, sources: 2) == 64)
        #expect(Queue.share(of: 128, sources: 3) == 43)
        #expect(Queue.share(of: 2, sources: 5) == 1)
    }

    @Test func theBoundRefusesTheLongestQueueOrTheNewcomersOwn() {
        var harness = Harness()
        #expect(harness.enqueue("a", count: 4, maximumWaiters: 4).isEmpty)
        #expect(harness.enqueue("a", maximumWaiters: 4) == ["a-5"])
        var mixed = Harness()
        #expect(mixed.enqueue("a", count: 2, maximumWaiters: 3).isEmpty)
        #expect(mixed.enqueue("b", maximumWaiters: 3).isEmpty)
        // Four waiters for three places, two queues of two: the newcomer's own goes.
        #expect(mixed.enqueue("b", maximumWaiters: 3) == ["b-2"])
        #expect(mixed.drain() == ["a-1", "b-1", "a-2"])
    }

    @Test func aSourceRefusedEverythingIsNoLongerQueued() {
        var harness = Harness()
        #expect(harness.enqueue("a", count: 2, maximumWaiters: 3).isEmpty)
        #expect(harness.dequeue() == "a-1")
        #expect(harness.enqueue("b", maximumWaiters: 3).isEmpty)
        #expect(harness.enqueue("c", maximumWaiters: 3).isEmpty)
        #expect(harness.enqueue("d", maximumWaiters: 3) == ["d-1"])
        #expect(harness.queue.waiting == 3)
        #expect(harness.drain() == ["b-1", "c-1", "a-2"])
        #expect(harness.queue.waiting == 0)
        #expect(harness.dequeue() == nil)
    }

    @Test("through the gate: a waiter beyond its source's share is refused, and the others run in turn")
    func gateRefusesAndRuns() throws {
        let gate = Argon2Gate(slots: 1, maximumWaiters: 2)
        let release = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)
        let outcomes = Locked<[String]>([])
        let group = DispatchGroup()
        func spawn(_ name: String, source: String) {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                do {
                    try gate.run(source: source) {
                        outcomes.withLock { $0.append(name) }
                        if name == "holder" {
                            started.signal()
                            release.wait()
                        }
                    }
                } catch {
                    outcomes.withLock { $0.append("\(name) refused") }
                }
            }
        }
        spawn("holder", source: "flood")
        started.wait()
        spawn("flood-1", source: "flood")
        while gate.waiting < 1 { Thread.sleep(forTimeInterval: 0.001) }
        spawn("flood-2", source: "flood")
        while gate.waiting < 2 { Thread.sleep(forTimeInterval: 0.001) }
        spawn("user", source: "user")
        while outcomes.withLock({ $0.count < 2 }) { Thread.sleep(forTimeInterval: 0.001) }
        #expect(outcomes.withLock { $0 } == ["holder", "flood-2 refused"])
        release.signal()
        group.wait()
        // "flood" was admitted lately (the holder), so "user", which was not, goes first.
        #expect(outcomes.withLock { $0 } == ["holder", "flood-2 refused", "user", "flood-1"])
    }
}
