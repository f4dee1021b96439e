/// Where a one-time code went (`challenge_channel`, `challenge_target_label`, `code_length`).
public struct CodeDelivery: Sendable, Equatable {
    /// The masked address, e.g. `a***@e***.com`; for a strong authentication method being
    /// registered, the contact the app gave.
    public let sentTo: String
    /// The channel the code went through: ``LatchChannelType/email`` (or ``LatchChannelType/sms``).
    public let channel: LatchChannelType
    /// Digits in the code.
    public let codeLength: Int

    init(_ reply: NativeAuthReply) {
        self.init(sentTo: reply.challengeTargetLabel ?? "", reply)
    }

    /// The delivery of a `register/v1.0/challenge` answer, which names the contact as `challenge_target`.
    init(registration reply: NativeAuthReply) {
        self.init(sentTo: reply.challengeTarget ?? reply.challengeTargetLabel ?? "", reply)
    }

    private init(sentTo: String, _ reply: NativeAuthReply) {
        self.sentTo = sentTo
        channel = LatchChannelType(value: reply.challengeChannel ?? "email")
        codeLength = reply.codeLength ?? 8
    }
}
