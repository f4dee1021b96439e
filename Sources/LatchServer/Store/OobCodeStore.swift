import Foundation

/// Out-of-band codes (``OobCode``), kept as hashes of the codes.
public protocol OobCodeReading {
    /// The code whose SHA-256 is `hash`, expired or not.
    func oobCode(hash: String) throws -> OobCode?
}

/// Changes to out-of-band codes.
public protocol OobCodeWriting: OobCodeReading {
    /// Adds a code; ``StoreError/conflict`` if its hash is taken.
    func insert(_ code: OobCode) throws
    /// Deletes the code whose SHA-256 is `hash` in one conditional statement and returns it, or
    /// `nil` when another request consumed it first (or there is none): of two concurrent
    /// applications of one code, exactly one gets it.
    func consumeOobCode(hash: String) throws -> OobCode?
}
