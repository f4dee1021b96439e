import Foundation
import LatchHTTP
import LatchWire

/// The native-auth adapter: the Entra External ID native-auth v1 endpoints under `/{tenant}/`.
struct NativeAuthAPI: Sendable {
    let services: AuthServices
    let runner: EndpointRunner

    /// Adds the routes to `router`.
    func register(in router: inout Router) {
        route(&router, "/{tenant}/signup/v1.0/start") { call in
            let token = try services.signUp.start(
                call.context, username: call.form["username"], password: call.form["password"],
                attributes: try AttributesParameter.parse(call.form["attributes"]), challengeType: call.form["challenge_type"],
                capabilities: call.form["capabilities"])
            return JSONBody.ok(["continuation_token": token])
        }
        route(&router, "/{tenant}/signup/v1.0/challenge") { call in
            render(
                try services.signUp.challenge(
                    call.context, continuationToken: call.form["continuation_token"],
                    challengeType: call.form["challenge_type"]))
        }
        route(&router, "/{tenant}/signup/v1.0/continue") { call in
            let grant = try services.signUp.continue(
                call.context, continuationToken: call.form["continuation_token"], grantType: call.form["grant_type"],
                code: call.form["oob"], password: call.form["password"],
                attributes: try AttributesParameter.parse(call.form["attributes"]))
            return JSONBody.ok(["continuation_token": grant.continuationToken, "expires_in": grant.expiresIn])
        }
        route(&router, "/{tenant}/oauth2/v2.0/initiate") { call in
            let token = try services.signIn.initiate(
                call.context, username: call.form["username"], challengeType: call.form["challenge_type"],
                capabilities: call.form["capabilities"])
            return JSONBody.ok(["continuation_token": token])
        }
        route(&router, "/{tenant}/oauth2/v2.0/challenge") { call in
            render(
                try services.signIn.challenge(
                    call.context, continuationToken: call.form["continuation_token"],
                    challengeType: call.form["challenge_type"]))
        }
        route(&router, "/{tenant}/oauth2/v2.0/token") { call in
            let form = call.form
            let issued = try services.signIn.token(
                call.context,
                request: NativeTokenRequest(
                    grantType: form["grant_type"], continuationToken: form["continuation_token"],
                    username: form["username"], password: form["password"], code: form["oob"],
                    refreshToken: form["refresh_token"], scope: form["scope"]))
            let response = TokenResponse(
                scope: issued.scopes.joined(separator: " "), expiresIn: issued.expiresIn, accessToken: issued.accessToken,
                refreshToken: issued.refreshToken, idToken: issued.idToken,
                clientInfo: form["client_info"] == "1" ? ClientInfo.encode(issued) : nil)
            return .json(200, JSONBody.encode(response), headers: HTTPHeaders([("Pragma", "no-cache")]))
        }
        route(&router, "/{tenant}/resetpassword/v1.0/start") { call in
            let token = try services.passwordReset.start(
                call.context, username: call.form["username"], challengeType: call.form["challenge_type"],
                capabilities: call.form["capabilities"])
            return JSONBody.ok(["continuation_token": token])
        }
        route(&router, "/{tenant}/resetpassword/v1.0/challenge") { call in
            render(
                try services.passwordReset.challenge(
                    call.context, continuationToken: call.form["continuation_token"],
                    challengeType: call.form["challenge_type"]))
        }
        route(&router, "/{tenant}/resetpassword/v1.0/continue") { call in
            let grant = try services.passwordReset.continue(
                call.context, continuationToken: call.form["continuation_token"], grantType: call.form["grant_type"],
                code: call.form["oob"])
            return JSONBody.ok(["continuation_token": grant.continuationToken, "expires_in": grant.expiresIn])
        }
        route(&router, "/{tenant}/resetpassword/v1.0/submit") { call in
            let result = try services.passwordReset.submit(
                call.context, continuationToken: call.form["continuation_token"], newPassword: call.form["new_password"])
            return JSONBody.ok(["continuation_token": result.continuationToken, "poll_interval": result.pollInterval])
        }
        route(&router, "/{tenant}/resetpassword/v1.0/poll_completion") { call in
            let result = try services.passwordReset.pollCompletion(
                call.context, continuationToken: call.form["continuation_token"])
            return JSONBody.ok(["status": result.status.rawValue, "continuation_token": result.continuationToken])
        }
    }

    private func route(
        _ router: inout Router, _ pattern: String, _ body: @escaping @Sendable (EndpointRunner.Call) throws -> HTTPResponse
    ) {
        let runner = runner
        router.add("POST", pattern) { request in runner.run(request, body) }
    }

    /// Renders a challenge outcome (the `redirect` answer is HTTP 200 too).
    private func render(_ outcome: ChallengeOutcome) -> HTTPResponse {
        switch outcome {
        case .password(let token):
            return JSONBody.ok(["challenge_type": "password", "continuation_token": token])
        case .oob(let token, let channel, let label, let length, let interval):
            return JSONBody.ok([
                "challenge_type": "oob", "continuation_token": token, "binding_method": "prompt",
                "challenge_channel": channel, "challenge_target_label": label, "code_length": length,
                "interval": interval,
            ])
        case .redirect(let reason):
            return JSONBody.ok(["challenge_type": "redirect", "redirect_reason": reason])
        }
    }
}
