import Foundation
import LatchServer
import Testing

/// The rate-limit bucket contract: one conditional take per request, refill by elapsed time up to
/// the capacity, refusals counted per trip, and full buckets purged.
@Suite("Store conformance: rate buckets")
struct StoreConformanceRateBucketTests {
    typealias Fixture = StoreConformance

    @Test(
        "a bucket starts full, refills by elapsed time up to its capacity, and counts refusals per trip",
        arguments: StoreConformance.implementations)
    func takeAndRefill(_ factory: StoreFactory) throws {
        let subject = try factory.make()
        defer { subject.close() }
        let store = subject.store
        let start = Fixture.now
        func take(_ bucket: String = "b", at offset: TimeInterval) throws -> Bool {
            try store.write { try $0.takeRateToken(bucket: bucket, capacity: 3, refillPerSecond: 0.5, at: start + offset) }
        }
        #expect(try (0..<4).map { _ in try take(at: 0) } == [true, true, true, false])
        let denial = try store.write { try $0.recordRateDenial(bucket: "b", capacity: 3, refillPerSecond: 0.5, at: start) }
        #expect(denial == RateDenial(available: 0, refusalsInTrip: 1))
        let half = try store.write {
            try $0.recordRateDenial(bucket: "b", capacity: 3, refillPerSecond: 0.5, at: start + 1)
        }
        #expect(half == RateDenial(available: 0.5, refusalsInTrip: 2))
        #expect(try take(at: 2))  // one token back after 2 s at 0.5/s
        #expect(try !take(at: 2))
        // A take resets the trip.
        let next = try store.write { try $0.recordRateDenial(bucket: "b", capacity: 3, refillPerSecond: 0.5, at: start + 2) }
        #expect(next?.refusalsInTrip == 1)
        // An hour idle refills to the capacity, not beyond.
        #expect(try (0..<4).map { _ in try take(at: 3600) } == [true, true, true, false])
        // Buckets are independent, and a denial for a missing bucket reports nil.
        #expect(try take("other", at: 0))
        #expect(try store.write { try $0.recordRateDenial(bucket: "none", capacity: 3, refillPerSecond: 1, at: start) } == nil)
    }

    @Test("a clock that steps back never adds tokens", arguments: StoreConformance.implementations)
    func clockStepsBack(_ factory: StoreFactory) throws {
        let subject = try factory.make()
        defer { subject.close() }
        let store = subject.store
        let start = Fixture.now
        func take(at offset: TimeInterval) throws -> Bool {
            try store.write { try $0.takeRateToken(bucket: "b", capacity: 1, refillPerSecond: 1, at: start + offset) }
        }
        #expect(try take(at: 100))
        #expect(try !take(at: 50))
        #expect(try !take(at: 100.5))
        #expect(try take(at: 101))
    }

    @Test("40 concurrent takes from a bucket of 30: exactly 30 succeed", arguments: StoreConformance.implementations)
    func concurrentTakes(_ factory: StoreFactory) async throws {
        let subject = try factory.make()
        defer { subject.close() }
        let store = subject.store
        let now = Fixture.now
        let outcomes = await StoreConformance.onThreads(40) { _ in
            try store.writeRelaxed { try $0.takeRateToken(bucket: "b", capacity: 30, refillPerSecond: 0.001, at: now) }
        }
        #expect(try outcomes.filter { try $0.get() }.count == 30)
    }

    @Test("buckets full again are deleted; others are kept", arguments: StoreConformance.implementations)
    func purgeFullBuckets(_ factory: StoreFactory) throws {
        let subject = try factory.make()
        defer { subject.close() }
        let store = subject.store
        let start = Fixture.now
        try store.write { tx in
            _ = try tx.takeRateToken(bucket: "quick", capacity: 10, refillPerSecond: 1, at: start)  // full after 1 s
            for _ in 0..<10 { _ = try tx.takeRateToken(bucket: "slow", capacity: 10, refillPerSecond: 0.01, at: start) }
        }
        try store.write { try $0.deleteRateBuckets(fullBefore: start + 5) }
        // "quick" was deleted, so it is full again; "slow" was kept, so it is still empty.
        let taken = try store.write { tx in
            (
                try tx.takeRateToken(bucket: "quick", capacity: 1, refillPerSecond: 0.001, at: start + 5),
                try tx.takeRateToken(bucket: "slow", capacity: 10, refillPerSecond: 0.01, at: start + 5)
            )
        }
        #expect(taken.0 == true)
        #expect(taken.1 == false)
    }
}
