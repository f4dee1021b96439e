import Foundation
import LatchHTTP

extension HostedPagesAPI {
    func deviceStep(
        _ call: inout PageCall, _ interaction: inout PageInteraction, form: [String: String], client: Client
    ) throws -> HTTPResponse {
        errorPage(&call, status: 400, message: call.text.expired)
    }

    func deviceDecision(_ call: inout PageCall, _ interaction: PageInteraction, allow: Bool) throws -> HTTPResponse {
        errorPage(&call, status: 400, message: call.text.expired)
    }

    func deviceConfirmPage(_ call: inout PageCall, _ interaction: inout PageInteraction, client: Client) throws
        -> HTTPResponse
    {
        errorPage(&call, status: 400, message: call.text.expired)
    }
}
