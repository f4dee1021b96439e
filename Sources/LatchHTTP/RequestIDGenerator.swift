import Synchronization

/// Generates request ids: 16 lowercase hex characters, unique within the process and unlikely to
/// repeat across processes.
///
/// Each id is SplitMix64 of a random per-process seed plus a counter step; the mix is a bijection,
/// so ids never repeat within a process, and it costs one relaxed atomic add, not a system call.
/// Ids are correlation handles, not secrets.
final class RequestIDGenerator: Sendable {
    static let shared = RequestIDGenerator()

    private let seed: UInt64
    private let counter = Atomic<UInt64>(0)

    init(seed: UInt64 = UInt64.random(in: .min ... .max)) {
        self.seed = seed
    }

    func next() -> String {
        let step = counter.wrappingAdd(1, ordering: .relaxed).newValue
        var z = seed &+ step &* 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return String(unsafeUninitializedCapacity: 16) { buffer in
            var value = z
            for index in stride(from: 15, through: 0, by: -1) {
                let nibble = UInt8(truncatingIfNeeded: value & 0xF)
                buffer[index] = nibble < 10 ? 0x30 + nibble : 0x57 + nibble
                value >>= 4
            }
            return 16
        }
    }
}
