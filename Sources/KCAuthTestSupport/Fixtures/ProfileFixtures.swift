/// A hand-edited configuration file: comments, three profiles, one with a storage line.
public enum ProfileFixtures {
    public static let text = """
    # kcauth settings
    [default]
    issuer = https://a/realms/x
    client_id = cli

    # the work account
    [work]
    issuer = https://b/realms/y
    client_id = kcauth
    storage = file

    ; trailing comment
    [old]
    port = 8400
    """
}
