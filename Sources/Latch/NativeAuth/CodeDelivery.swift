/// Where a one-time code went (`challenge_channel`, `challenge_target_label`, `code_length`).
public struct CodeDelivery: Sendable, Equatable {
    /// The masked address, e.g. `a***@e***.com`.
    public let sentTo: String
    /// The channel the code went through: ``LatchChannelType/email`` (or ``LatchChannelType/sms``).
    public let channel: LatchChannelType
    /// Digits in the code.
    public let codeLength: Int

    init(_ reply: NativeAuthReply) {
        sentTo = reply.challengeTargetLabel ?? ""
        channel = LatchChannelType(value: reply.challengeChannel ?? "email")
        codeLength = reply.codeLength ?? 8
    }
}
