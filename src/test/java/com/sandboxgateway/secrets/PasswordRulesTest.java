package com.sandboxgateway.secrets;

import static com.sandboxgateway.secrets.Scans.found;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Passwords in URLs, JDBC URLs and key-value assignments: the finding is the value, not the key or URL. */
class PasswordRulesTest {

    private final FakeSecrets fake = new FakeSecrets(3);

    @Test
    void shouldFindThePasswordOfAUrlWithUserinfo() {
        String password = fake.password();

        assertThat(found("DATABASE_URL=postgres://app:" + password + "@db:5432/app")).containsExactly("url-password=" + password);
        assertThat(found("redis://:" + password + "@cache:6379")).containsExactly("url-password=" + password);
        assertThat(found("mongodb+srv://admin:" + password + "@cluster0.mongodb.net/x")).containsExactly("url-password=" + password);
    }

    @Test
    void shouldTakeTheLastAtSignOfTheAuthorityAsTheHostSeparator() {
        assertThat(found("https://bob:p@ss-w0rd@proxy.corp:3128")).containsExactly("url-password=p@ss-w0rd");
    }

    @Test
    void shouldNotReportPlaceholderPasswordsOrUrlsWithoutOne() {
        assertThat(found("postgres://user:password@localhost/db")).isEmpty();
        assertThat(found("mysql://root:${MYSQL_ROOT_PASSWORD}@db:3306/app")).isEmpty();
        assertThat(found("amqp://guest:****@rabbit/")).isEmpty();
        assertThat(found("ssh://git@github.com/acme/repo.git and https://example.com:8443/a@b")).isEmpty();
    }

    @Test
    void shouldFindJdbcPasswordPropertiesInEveryDriversSyntax() {
        String password = fake.password();

        assertThat(found("jdbc:mysql://db/shop?user=shop&password=" + password + "&useSSL=true"))
                .containsExactly("jdbc-password=" + password);
        assertThat(found("jdbc:sqlserver://sql01;user=sa;Password=" + password + ";encrypt=true"))
                .containsExactly("jdbc-password=" + password);
        assertThat(found("jdbc:oracle:thin:scott/" + password + "@//orahost:1521/ORCL"))
                .containsExactly("jdbc-password=" + password);
    }

    @Test
    void shouldNotReportJdbcPlaceholders() {
        assertThat(found("jdbc:mysql://localhost/app?user=app&password=${DB_PASS}")).isEmpty();
        assertThat(found("jdbc:postgresql://localhost/app?user=app")).isEmpty();
        assertThat(found("jdbc:oracle:thin:@orahost:1521:ORCL")).isEmpty();
    }

    @Test
    void shouldFindRandomValuesAssignedToSecretSoundingKeys() {
        String value = fake.password();

        assertThat(found("DB_PASSWORD=" + value)).containsExactly("generic-secret-assignment=" + value);
        assertThat(found("  client_secret: \"" + value + "\"")).containsExactly("generic-secret-assignment=" + value);
        assertThat(found("{\"api_key\": \"" + value + "\"}")).containsExactly("generic-secret-assignment=" + value);
        assertThat(found("{\\\"token\\\": \\\"" + value + "\\\"}")).containsExactly("generic-secret-assignment=" + value);
        assertThat(found("'secret' => '" + value + "',")).containsExactly("generic-secret-assignment=" + value);
        assertThat(found("auth_token := " + value)).containsExactly("generic-secret-assignment=" + value);
        assertThat(found("GET /x?token=" + value + "&page=2")).containsExactly("generic-secret-assignment=" + value);
        assertThat(found("Authorization: Bearer " + value)).containsExactly("generic-secret-assignment=" + value);
    }

    @Test
    void shouldFindThousandsOfGeneratedPasswordsAssignedInConfiguration() {
        String[] contexts = {"DB_PASSWORD=%s", "password: \"%s\"", "{\"client_secret\": \"%s\"}", "api_key = '%s'", "?token=%s&x=1"};
        for (int i = 0; i < 5_000; i++) {
            String value = fake.password();
            String context = contexts[i % contexts.length];
            int start = context.indexOf("%s");

            assertThat(SecretScanner.standard().scan(context.formatted(value))).as(value)
                    .containsExactly(new Finding("generic-secret-assignment", Finding.Kind.SECRET, start, start + value.length()));
        }
    }

    @Test
    void shouldIgnoreKeysThatOnlyContainASecretWord() {
        String value = fake.password();

        assertThat(found("max_tokens=" + value)).isEmpty();
        assertThat(found("password_hash=" + value)).isEmpty();
        assertThat(found("secretary: " + value)).isEmpty();
    }

    @Test
    void shouldIgnoreLowEntropyReferencesAndPlainValues() {
        assertThat(found("password=changeme")).isEmpty();
        assertThat(found("token = settings.OPENAI_API_KEY")).isEmpty();
        assertThat(found("password = os.environ[\"DB_PASSWORD\"]")).isEmpty();
        assertThat(found("api_key: {{ vault_api_key }}")).isEmpty();
        assertThat(found("token_count: 123456789012")).isEmpty();
        assertThat(found("api_token: 123456789012")).as("digits only").isEmpty();
        assertThat(found("secret: The cake is a lie")).isEmpty();
        assertThat(found("password: aaaaaaaaaaaa1")).isEmpty();
        assertThat(found("PWD=/home/runner/work/project")).isEmpty();
        assertThat(found("if password == confirm_password: save()")).isEmpty();
    }

    @Test
    void shouldPreferASpecificRuleWhenAGenericAssignmentHoldsAKnownToken() {
        String token = fake.gitHubToken();

        assertThat(found("token: " + token)).containsExactly("github-token=" + token);
    }
}
