import Foundation

/// Native-auth flows, addressed by the hash of their current continuation token.
public protocol FlowReading {
    /// The flow whose current continuation token hashes to `tokenHash`.
    func flow(tokenHash: String) throws -> Flow?
}

/// Changes to flows. Advancing and consuming are compare-and-set on the token hash the caller
/// loaded, so of two requests racing with one continuation token exactly one applies.
public protocol FlowWriting: FlowReading {
    /// Adds a flow.
    func insert(_ flow: Flow) throws
    /// Replaces the flow `flow.id` with `flow` if its token hash is still `expectedTokenHash`.
    /// - Returns: whether it applied.
    func replace(_ flow: Flow, expectingTokenHash expectedTokenHash: String) throws -> Bool
    /// Deletes the flow `id` if its token hash is still `tokenHash`.
    /// - Returns: whether it applied (the caller is the one that consumed the flow).
    func consumeFlow(id: String, tokenHash: String) throws -> Bool
    /// Removes flows that expired before `date`.
    func deleteFlows(expiredBefore date: Date) throws
}
