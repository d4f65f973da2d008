import ArgumentParser
import DevelopmentSupport
import Foundation
import Invoker
import LocalUserPool

struct Pool: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve a local Cognito user pool (JSON protocol, real SRP, signed tokens) that drives the triggers.",
        discussion: """
            Point an SDK at it: boto3.client("cognito-idp", endpoint_url="http://127.0.0.1:PORT", region_name="us-east-1") \
            with any credentials. Serves InitiateAuth, AdminInitiateAuth, RespondToAuthChallenge, \
            AdminRespondToAuthChallenge, AdminCreateUser, AdminSetUserPassword, SignUp, AdminConfirmSignUp, \
            AdminGetUser, GetUser, AdminUpdateUserAttributes, UpdateUserAttributes and RevokeToken, and GET \
            /POOL_ID/.well-known/jwks.json. The app client's auth flows come from the template's UserPoolClient \
            (ExplicitAuthFlows) unless --allow-flow is given, and what it may write and read from its \
            WriteAttributes and ReadAttributes (UpdateUserAttributes refuses others; GetUser and ID tokens leave \
            them out). User names are case-insensitive. With --bootstrap, the flow may name the steps that \
            bootstrap registers. Prints \
            "Listening on http://HOST:PORT" and then "HTTP API on http://HOST:PORT" (the passkey routes, \
            POST /passkeys/registration/options, POST /passkeys/registration, GET /passkeys, PATCH and DELETE \
            /passkeys/{id}, each behind a JWT authorizer that takes this pool's access tokens) when ready, one line per request on standard error, and stops on Ctrl-C \
            or SIGTERM. Browser pages get CORS headers only from the origins --allow-origin names (by default the \
            pool's own, http://127.0.0.1:PORT and http://localhost:PORT), so that no other page open in the browser \
            can call the pool.
            """)

    @Option(help: ArgumentHelp("The address to listen on (only loopback is sensible).", valueName: "host"))
    var host = "127.0.0.1"

    @Option(help: ArgumentHelp("The port to listen on; 0 picks a free one.", valueName: "port"))
    var port = 9229

    @Option(name: .customLong("api-port"), help: ArgumentHelp("The port of the HTTP API in front of the function (the passkey routes, as API Gateway with a JWT authorizer of this pool serves them); by default the pool's port + 1 when it is free, else a free one.", valueName: "port"))
    var apiPort: Int?

    @Option(help: ArgumentHelp("A JSON user table: [{\"userName\", \"password\", \"email\", \"phoneNumber\", \"attributes\": {\"custom:…\": …}}] (default: jane / Correct-Horse-9).", valueName: "file"))
    var users: String?

    @Option(help: ArgumentHelp("The template whose UserPoolClient sets the auth flows, user-existence errors and session life.", valueName: "path"))
    var template = "Deploy/template.yaml"

    @Option(name: .customLong("allow-flow"), help: ArgumentHelp("Allow this auth flow instead of the template's, e.g. ALLOW_USER_SRP_AUTH (repeatable).", valueName: "flow"))
    var allowedFlows: [String] = []

    @Option(help: ArgumentHelp("Minutes a sign-in session string stays usable (default: the template's AuthSessionValidity, else 3).", valueName: "minutes"))
    var sessionMinutes: Double?

    @Option(name: .customLong("allow-origin"), help: ArgumentHelp("A web page origin that may call the pool from a browser, e.g. http://localhost:5173 (repeatable; default: the pool's own origin only).", valueName: "origin"))
    var allowedOrigins: [String] = []

    @Flag(help: "Answer UserNotFoundException for unknown users instead of running the triggers with userNotFound: true.")
    var userExistenceErrors = false

    @OptionGroup var configuration: ConfigurationOptions
    @OptionGroup var transport: TransportOptions

    func validate() throws {
        for flow in allowedFlows where !ClientAuthFlows.knownNames.contains(flow) {
            throw ValidationError("--allow-flow \"\(flow)\" is not a Cognito auth flow (\(ClientAuthFlows.knownNames.sorted().joined(separator: ", ")))")
        }
        if let sessionMinutes, !(sessionMinutes > 0 && sessionMinutes <= 15) {
            throw ValidationError("--session-minutes must be more than 0 and at most 15")
        }
        _ = try crossOriginPolicy()
    }

    /// The origins --allow-origin names; nil (the pool's own origin) when it is not given.
    private func crossOriginPolicy() throws(ValidationError) -> CrossOriginPolicy? {
        guard !allowedOrigins.isEmpty else { return nil }
        do {
            return try CrossOriginPolicy(allowing: allowedOrigins)
        } catch {
            throw ValidationError("--allow-origin \(error)")
        }
    }

    func run() async throws {
        try await reportingErrors { () async throws(InvokerError) in
            let console = configuration.console
            let port = try self.port == 0 ? Self.freePort(host: host) : self.port
            // The passkey API proves tokens with this pool's GetUser, as a deployed function does with Cognito's.
            var added = ["COGNITO_IDP_ENDPOINT": "http://\(host.contains(":") ? "[\(host)]" : host):\(port)"]
            var local = try await transport.load(configuration, adding: added)
            if local.environment["PASSKEY_ALLOWED_ORIGINS"] == LocalDefaults.passkeyOrigin {
                // The local passkey settings, with the origin of the pool's own page as a browser opens it.
                let origins = ["http://localhost:\(port)", LocalDefaults.passkeyOrigin] + allowedOrigins.filter {
                    CrossOriginPolicy.normalized($0)?.hasPrefix("http://localhost:") == true
                }
                added["PASSKEY_ALLOWED_ORIGINS"] = origins.joined(separator: ",")
                local = try await transport.load(configuration, adding: added)
            }
            let client = try readTemplate()
            let settings = PoolSettings(
                flows: allowedFlows.isEmpty ? client.flows : ClientAuthFlows(allowedFlows),
                preventUserExistenceErrors: client.preventUserExistenceErrors && !userExistenceErrors,
                sessionLifetime: .milliseconds(Int64(((sessionMinutes ?? client.sessionValidityMinutes.map(Double.init) ?? 3) * 60_000).rounded())),
                writeAttributes: client.writeAttributes, readAttributes: client.readAttributes)
            let table = try users.map(LocalUserTable.load(path:)) ?? .embedded
            let now = Int64(Date().timeIntervalSince1970)
            let poolUsers: [PoolUser]
            let key: TokenSigningKey
            do {
                poolUsers = try table.users.map { local throws(PoolError) in try PoolUser(local, userPoolId: settings.userPoolId, createdAt: now) }
                key = try TokenSigningKey.generate()
            } catch {
                throw .invalidConfiguration("the pool cannot start: \(error)")
            }
            try await using(transport.makeTransport(local)) { transport async throws(InvokerError) in
                let endpoint = PoolEndpoint(allowedOrigins: try? crossOriginPolicy()) { exchange in
                    console.diagnostics("\(exchange.operation)  \(exchange.summary)")
                }
                var poolURL = ""
                let pool: LocalUserPool
                do {
                    pool = try await endpoint.start(host: host, port: port) { baseURL in
                        poolURL = baseURL
                        let issuer = CognitoTokenIssuer(issuer: "\(baseURL)/\(settings.userPoolId)", clientID: settings.clientId, key: key)
                        return try LocalUserPool(settings: settings, users: poolUsers, transport: transport, issuer: issuer)
                    }
                } catch {
                    await endpoint.shutdown()
                    throw .usage("cannot serve the pool on \(host):\(port): \(error)")
                }
                let boundPort = Int(poolURL.split(separator: ":").last ?? "") ?? port
                let api = HTTPAPIEndpoint(allowedOrigins: (try? crossOriginPolicy()) ?? .ownOrigin(host: host, port: boundPort)) { line in
                    console.diagnostics("API  \(line)")
                }
                let apiURL: String
                do {
                    if let apiPort {
                        apiURL = try await api.start(host: host, port: apiPort, pool: pool)
                    } else {
                        // The next port when it is free, else any free one (the second line of output names it).
                        let next = self.port == 0 ? 0 : port + 1
                        do {
                            apiURL = try await api.start(host: host, port: next, pool: pool)
                        } catch where next != 0 {
                            apiURL = try await api.start(host: host, port: 0, pool: pool)
                        }
                    }
                } catch {
                    await endpoint.shutdown()
                    throw .usage("cannot serve the HTTP API on \(host): \(error)")
                }
                await pool.setHTTPAPIURL(apiURL)
                console.output("Listening on \(poolURL)")
                console.output("HTTP API on \(apiURL)")
                console.diagnostics("""
                    user pool \(settings.userPoolId) · app client \(settings.clientId) · flows \(settings.flows.sortedNames.joined(separator: ", ")) · triggers \(transport.label)
                    JWKS \(poolURL)/\(settings.userPoolId)/.well-known/jwks.json · issuer \(poolURL)/\(settings.userPoolId)
                    HTTP API: the passkey routes, with a JWT authorizer taking this pool's access tokens for app client \(settings.clientId)
                    """)
                await waitForTermination()
                console.diagnostics("stopping")
                await api.shutdown()
                await endpoint.shutdown()
            }
        }
    }

    /// A port free on `host` now, for `--port 0`: the pool's own origin goes into the function's passkey settings
    /// before the pool listens.
    private static func freePort(host: String) throws(InvokerError) -> Int {
        guard let port = FreePort.find(host: host == "localhost" ? "127.0.0.1" : host) else {
            throw .usage("cannot find a free port on \(host) (--host must be an IPv4 address)")
        }
        return port
    }

    /// The template's app-client settings; when the default template is absent, the settings it ships with.
    private func readTemplate() throws(InvokerError) -> AppClientTemplate {
        guard FileManager.default.fileExists(atPath: template) else {
            guard template == "Deploy/template.yaml" else { throw .invalidConfiguration("template \(template) does not exist") }
            return AppClientTemplate(
                flows: ClientAuthFlows(["ALLOW_CUSTOM_AUTH", "ALLOW_REFRESH_TOKEN_AUTH"]), preventUserExistenceErrors: true,
                sessionValidityMinutes: 3, writeAttributes: ["name", "given_name", "family_name", "locale"],
                readAttributes: [
                    "email", "email_verified", "phone_number", "phone_number_verified", "name", "given_name", "family_name", "locale",
                ])
        }
        do {
            return try AppClientTemplate(yaml: String(contentsOfFile: template, encoding: .utf8))
        } catch let error as AppClientTemplate.ReadError {
            throw .invalidConfiguration("template \(template): \(error)")
        } catch {
            throw .invalidConfiguration("template \(template) cannot be read: \(error.localizedDescription)")
        }
    }
}
