import Foundation
import LatchServer
import Testing

/// The backoff of failed deliveries: 5 s doubling to at most 10 minutes, shortened by at most the
/// jitter, and the message abandoned after the most attempts.
@Suite("Outbox retry policy")
struct OutboxRetryPolicyTests {
    @Test("without jitter: 5, 10, 20, 40, 80, 160, 320, then 600 s for ever")
    func exactDelays() {
        var policy = OutboxRetryPolicy()
        policy.jitter = 0
        #expect((1...10).map { policy.delay(afterAttempt: $0) } == [5, 10, 20, 40, 80, 160, 320, 600, 600, 600])
        #expect(policy.delay(afterAttempt: 10_000) == 600)
        #expect(policy.delay(afterAttempt: 0) == 5)
    }

    @Test("with the default jitter a delay is shortened by at most 10 %, never lengthened")
    func jitter() {
        let policy = OutboxRetryPolicy()
        for attempt in 1...9 {
            let exact = min(5 * pow(2, Double(attempt - 1)), 600)
            #expect(policy.delay(afterAttempt: attempt, random: 0) == exact)
            #expect(abs(policy.delay(afterAttempt: attempt, random: 0.999_999) - exact * 0.9) < 0.001)
            #expect((exact * 0.9...exact).contains(policy.delay(afterAttempt: attempt)))
        }
    }

    @Test("abandoned after the most attempts: 8 by default, at least 1")
    func abandons() {
        var policy = OutboxRetryPolicy()
        #expect(!policy.abandons(afterAttempts: 7) && policy.abandons(afterAttempts: 8))
        policy.maximumAttempts = 0
        #expect(policy.abandons(afterAttempts: 1))
        policy.maximumAttempts = 3
        #expect(!policy.abandons(afterAttempts: 2) && policy.abandons(afterAttempts: 3))
    }
}
