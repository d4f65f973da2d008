import ArgumentParser
import ChallengeCrypto
import CognitoSRP
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@main
struct SignInClient: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sign-in-client",
        abstract: "Signs a user in to a Cognito user pool through its custom-auth triggers and prints the tokens' claims.",
        discussion: """
            InitiateAuth with AuthFlow CUSTOM_AUTH (with --srp or --password, first CHALLENGE_NAME=SRP_A and the \
            PASSWORD_VERIFIER answered with the SRP password claim), then every CUSTOM_CHALLENGE: its public \
            parameters are printed and the answer is read from standard input or from --answer-command. A magic \
            link given whole is answered with its token. A choice of method (challenge METHOD_CHOICE, e.g. of \
            email-or-sms-code) is answered with a step name from its methods, which goes as ClientMetadata method \
            too. Exit status: 0 signed in, 1 Cognito refused the sign-in (its error on standard error), 2 anything \
            else (transport, no answer, an unexpected challenge).
            """)

    @Option(help: "The user name (USERNAME), or an alias the pool accepts.")
    var user: String = "jane"

    @Option(help: "The user pool id; its Region picks the endpoint, its name is part of the SRP.")
    var userPoolId: String = "us-east-1_EXAMPLE"

    @Option(help: "The app client id.")
    var clientId: String = "3example0client0id0abc123"

    @Option(help: "The app client's secret, when it has one (sends SECRET_HASH).")
    var clientSecret: String?

    @Option(help: ArgumentHelp(
        "Where the Cognito API is, e.g. http://127.0.0.1:9230 for `cognito-local pool`.",
        discussion: "By default the user pool's regional endpoint, https://cognito-idp.REGION.amazonaws.com/."))
    var endpoint: String?

    @Flag(help: "Start with SRP (CHALLENGE_NAME=SRP_A), for flows such as srp-email-code.")
    var srp = false

    @Option(help: ArgumentHelp(
        "The password for SRP (implies --srp).",
        discussion: "Without it, SIGN_IN_PASSWORD, else a prompt (a line of standard input when it is no terminal)."))
    var password: String?

    @Option(help: ArgumentHelp(
        "A shell command whose output is the answer to each custom challenge.",
        discussion: "It runs with CHALLENGE_NAME, CHALLENGE_ROUND (1, 2, ...) and CHALLENGE_PARAMETERS (the public parameters as JSON) in its environment."))
    var answerCommand: String?

    @Option(name: .customLong("client-metadata"), help: ArgumentHelp(
        "KEY=VALUE sent as ClientMetadata (repeatable), e.g. app=web.",
        valueName: "key=value"))
    var clientMetadata: [String] = []

    @Flag(help: "Print one JSON object (the claims and the tokens) on standard output; progress goes to standard error.")
    var json = false

    @Option(help: "Give up after this many challenges.")
    var maxChallenges = 10

    mutating func validate() throws {
        for pair in clientMetadata where !pair.contains("=") || pair.hasPrefix("=") {
            throw ValidationError("--client-metadata \"\(pair)\" is not KEY=VALUE")
        }
        if endpoint == nil, CognitoAPI.regionalEndpoint(userPoolId: userPoolId) == nil {
            throw ValidationError("--user-pool-id \"\(userPoolId)\" has no Region before \"_\"; give --endpoint")
        }
        guard maxChallenges > 0 else { throw ValidationError("--max-challenges must be positive") }
    }

    func run() throws {
        do {
            try signIn()
        } catch let error as CognitoServiceError {
            prompt("sign-in-client: \(error)\n")
            if error.operation == "InitiateAuth", error.type == "NotAuthorizedException", !srp, password == nil {
                // What Define answers to an SRP flow started without SRP_A.
                prompt("sign-in-client: if the pool's flow starts with the password (srp-email-code), give --srp or --password\n")
            }
            throw ExitCode(1)
        } catch let error as ClientFailure {
            prompt("sign-in-client: \(error)\n")
            throw ExitCode(2)
        } catch let error as SRPError {
            prompt("sign-in-client: SRP: \(error)\n")
            throw ExitCode(2)
        }
    }

    /// Progress and challenges: standard output, or standard error when standard output carries the JSON.
    private func say(_ line: String) {
        if json {
            prompt(line + "\n")
        } else {
            print(line)
            fflush(nil)  // every stream: a challenge is on screen (or in the pipe) before its answer is asked for
        }
    }

    private var metadata: [String: String] {
        var pairs: [String: String] = [:]
        for pair in clientMetadata {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            pairs[String(parts[0])] = String(parts[1])
        }
        return pairs
    }

    /// SECRET_HASH: base64 of HMAC-SHA256 under the client secret of the user name and the client id.
    private func secretHash(for userName: String) -> String? {
        guard let clientSecret else { return nil }
        return CognitoSRP.Base64.encode(
            HMACSHA256.authenticationCode(key: Array(clientSecret.utf8), message: Array((userName + clientId).utf8)))
    }

    private func signIn() throws {
        let api = try CognitoAPI(endpoint: endpoint ?? CognitoAPI.regionalEndpoint(userPoolId: userPoolId)!)
        let usesSRP = srp || password != nil
        let srpClient = usesSRP ? try SRPClient() : nil
        let srpPassword = usesSRP
            ? try password ?? ProcessInfo.processInfo.environment["SIGN_IN_PASSWORD"] ?? readPassword(user: user)
            : nil
        let answers = AnswerSource(command: answerCommand)

        var authParameters = ["USERNAME": user]
        if let srpClient {
            authParameters["CHALLENGE_NAME"] = "SRP_A"
            authParameters["SRP_A"] = srpClient.publicA
        }
        authParameters["SECRET_HASH"] = secretHash(for: user)
        var request: [String: Any] = ["AuthFlow": "CUSTOM_AUTH", "ClientId": clientId, "AuthParameters": authParameters]
        if !metadata.isEmpty { request["ClientMetadata"] = metadata }
        say("InitiateAuth  CUSTOM_AUTH  USERNAME=\(user)\(usesSRP ? "  CHALLENGE_NAME=SRP_A" : "")  at \(api.endpoint)")
        var response = try api.call("InitiateAuth", request)

        var challenges: [String] = []
        while true {
            if let result = response["AuthenticationResult"] as? [String: Any] {
                try report(result, challenges: challenges)
                return
            }
            guard let name = response["ChallengeName"] as? String, let session = response["Session"] as? String else {
                throw ClientFailure("Cognito answered neither tokens nor a challenge: \(Claims.pretty(response))")
            }
            guard challenges.count < maxChallenges else {
                throw ClientFailure("still no tokens after \(maxChallenges) challenges (--max-challenges)")
            }
            challenges.append(name)
            let parameters = (response["ChallengeParameters"] as? [String: Any] ?? [:]).mapValues { "\($0)" }
            var responses: [String: String]
            var callMetadata = metadata
            switch name {
            case "PASSWORD_VERIFIER":
                guard let srpClient, let srpPassword else {
                    throw ClientFailure("the pool asks for the password (PASSWORD_VERIFIER): give --srp or --password")
                }
                say("\(challenges.count). PASSWORD_VERIFIER  answered with the SRP password claim")
                responses = try passwordVerifier(srpClient, password: srpPassword, parameters: parameters)
            case "CUSTOM_CHALLENGE":
                say("\(challenges.count). CUSTOM_CHALLENGE")
                for key in parameters.keys.sorted() { say("     \(key): \(parameters[key]!)") }
                let answer = try answers.answer(challengeName: name, round: challenges.count, parameters: parameters)
                if answerCommand != nil { say("     answer › \(answer)") }  // typed answers are on screen already
                responses = ["USERNAME": parameters["USERNAME"] ?? user, "ANSWER": answer]
                // Cognito hands the next Create this call's ClientMetadata, never the answer.
                if parameters["challenge"] == "METHOD_CHOICE" { callMetadata["method"] = answer }
            default:
                throw ClientFailure("\(name) is not a challenge of the custom-auth flows; this client answers only PASSWORD_VERIFIER and CUSTOM_CHALLENGE")
            }
            responses["SECRET_HASH"] = secretHash(for: responses["USERNAME"] ?? user)
            var next: [String: Any] = [
                "ClientId": clientId, "ChallengeName": name, "Session": session, "ChallengeResponses": responses,
            ]
            if !callMetadata.isEmpty { next["ClientMetadata"] = callMetadata }
            response = try api.call("RespondToAuthChallenge", next)
        }
    }

    /// The PASSWORD_VERIFIER responses, as AWS's own SDKs compute them: the claim signed with the SRP key.
    private func passwordVerifier(_ client: SRPClient, password: String, parameters: [String: String]) throws -> [String: String] {
        guard let userId = parameters["USER_ID_FOR_SRP"], let salt = parameters["SALT"], let serverB = parameters["SRP_B"],
              let secretBlockText = parameters["SECRET_BLOCK"]
        else {
            throw ClientFailure("PASSWORD_VERIFIER without USER_ID_FOR_SRP, SALT, SRP_B or SECRET_BLOCK")
        }
        guard let secretBlock = CognitoSRP.Base64.decode(secretBlockText) else {
            throw ClientFailure("SECRET_BLOCK is not base64")
        }
        let timestamp = CognitoTimestamp.format(unixSeconds: Int64(time(nil)))
        let signature = try client.passwordClaim(
            poolName: cognitoPoolName(userPoolId: userPoolId), userId: userId, password: password, salt: salt,
            serverB: serverB, secretBlock: secretBlock, timestamp: timestamp)
        return [
            "USERNAME": userId, "TIMESTAMP": timestamp, "PASSWORD_CLAIM_SECRET_BLOCK": secretBlockText,
            "PASSWORD_CLAIM_SIGNATURE": signature,
        ]
    }

    private func report(_ result: [String: Any], challenges: [String]) throws {
        let idClaims = (result["IdToken"] as? String).flatMap(Claims.of(jwt:))
        let accessClaims = (result["AccessToken"] as? String).flatMap(Claims.of(jwt:))
        let signedInAs = idClaims?["cognito:username"] as? String ?? accessClaims?["username"] as? String ?? user
        if json {
            var output: [String: Any] = ["challenges": challenges, "authenticationResult": result]
            output["idTokenClaims"] = idClaims
            output["accessTokenClaims"] = accessClaims
            print(Claims.pretty(output))
            return
        }
        let kinds = [("IdToken", "ID"), ("AccessToken", "access"), ("RefreshToken", "refresh")]
            .filter { result[$0.0] != nil }.map(\.1)
        print("Signed in as \(signedInAs) after \(challenges.count) challenge(s): \(kinds.joined(separator: ", ")) tokens"
            + (result["ExpiresIn"].map { ", expiring in \($0) s" } ?? ""))
        if let idClaims { print("ID token claims:\n\(Claims.pretty(idClaims))") }
        if let accessClaims { print("Access token claims:\n\(Claims.pretty(accessClaims))") }
        if idClaims == nil && accessClaims == nil {
            throw ClientFailure("the tokens are not JWTs")
        }
    }
}
