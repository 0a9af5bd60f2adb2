extension IDTokenClaims {
    /// The name to greet the user with after a login. A provider that puts only `sub` in the ID
    /// token (OpenID Connect Core §2 requires no more) names the user in userinfo, which the login
    /// fetched and keeps with the session (`SessionFinisher`); it counts only when it is about the
    /// same subject.
    public func displayName(userinfo: JSONValue?) -> String {
        if preferredUsername != nil || email != nil || name != nil { return displayName }
        guard let info = userinfo, info["sub"]?.stringValue == sub else { return displayName }
        return info["preferred_username"]?.stringValue ?? info["email"]?.stringValue ?? info["name"]?.stringValue ?? sub
    }
}
