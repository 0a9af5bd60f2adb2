/// The profile keys of how a profile signs in: sticky authorization parameters, client
/// authentication and the client-credentials grant. Kept apart from the older keys so each group
/// reads on its own.
extension ProfileSettings {
    public static let clientCredentialsGrant = "client_credentials"

    mutating func readRequestAndClient(_ doc: ConfigDocument, profile: String, path: String) throws {
        for parameter in StickyParameter.allCases {
            sticky[parameter] = doc.value(parameter.key, profile: profile).flatMap { $0.isEmpty ? nil : $0 }
        }
        clientAuth = try ClientAuthenticationSetting.read(doc, profile: profile, path: path)
        if let g = doc.value("grant", profile: profile), !g.isEmpty {
            guard g == Self.clientCredentialsGrant else {
                throw KCAuthError(.configuration, "\(path): profile [\(profile)]: grant '\(Sanitize.oneLine(g))' is not client_credentials")
            }
            grant = g
        }
        // The catalogue's checks have refused anything else (checkAgainstCatalogue).
        dpop = doc.value("dpop", profile: profile).flatMap(DPoPMode.init(rawValue:)).flatMap { $0 == .no ? nil : $0 }
        par = doc.value("par", profile: profile).flatMap(PARMode.init(rawValue:)).flatMap { $0 == .auto ? nil : $0 }
    }

    func applyRequestAndClient(to doc: inout ConfigDocument, profile: String) {
        for parameter in StickyParameter.allCases { doc.set(parameter.key, sticky[parameter], profile: profile) }
        (clientAuth ?? .none).apply(to: &doc, profile: profile)
        doc.set("grant", grant, profile: profile)
        doc.set("dpop", dpop?.rawValue, profile: profile)
        doc.set("par", par?.rawValue, profile: profile)
    }
}
