internal import LatchLocking

/// Generates request ids: 16 lowercase hex characters, unique within the process and unlikely to
/// repeat across processes.
///
/// Each id is SplitMix64 of a random per-process seed plus a counter step; the mix is a bijection,
/// so ids never repeat within a process, and it costs one uncontended lock, not a system call.
/// Ids are correlation handles, not secrets.
final class RequestIDGenerator: Sendable {
    static let shared = RequestIDGenerator()

    private let seed: UInt64
    private let counter = Locked<UInt64>(0)

    init(seed: UInt64 = UInt64.random(in: .min ... .max)) {
        self.seed = seed
    }

    func next() -> String {
        let z = mixed()
        return String(unsafeUninitializedCapacity: 16) { buffer in
            var value = z
            for index in stride(from: 15, through: 0, by: -1) {
                buffer[index] = Self.hexDigit(value)
                value >>= 4
            }
            return 16
        }
    }

    /// A correlation id in the RFC 9562 UUID text form (version 4 layout, upper-case hex as MSAL
    /// sends its own), for responses whose client sent none: two counter steps, no system call.
    func nextUUID() -> String {
        let high = (mixed() & 0xFFFF_FFFF_FFFF_0FFF) | 0x0000_0000_0000_4000
        let low = (mixed() & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000
        return String(unsafeUninitializedCapacity: 36) { buffer in
            var position = 0
            for digit in 0..<32 {
                if digit == 8 || digit == 12 || digit == 16 || digit == 20 {
                    buffer[position] = UInt8(ascii: "-")
                    position += 1
                }
                let word = digit < 16 ? high : low
                buffer[position] = Self.hexDigit(word >> UInt64(60 - 4 * (digit % 16)), upperCase: true)
                position += 1
            }
            return position
        }
    }

    private func mixed() -> UInt64 {
        let step = counter.add(1)
        var z = seed &+ step &* 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    private static func hexDigit(_ value: UInt64, upperCase: Bool = false) -> UInt8 {
        let nibble = UInt8(truncatingIfNeeded: value & 0xF)
        return nibble < 10 ? 0x30 + nibble : (upperCase ? 0x37 : 0x57) + nibble
    }
}
