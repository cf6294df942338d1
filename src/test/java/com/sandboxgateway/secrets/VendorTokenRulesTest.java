package com.sandboxgateway.secrets;

import static com.sandboxgateway.secrets.Scans.found;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class VendorTokenRulesTest {

    private final FakeSecrets fake = new FakeSecrets(1);

    @Test
    void shouldFindOpenAiProjectServiceAccountAdminAndLegacyKeys() {
        String project = fake.openAiProjectKey();
        String serviceAccount = "sk-svcacct-" + fake.chars(FakeSecrets.BASE64URL, 100);
        String admin = "sk-admin-" + fake.chars(FakeSecrets.BASE64URL, 100);
        String legacy = fake.openAiLegacyKey();

        assertThat(found("OPENAI_API_KEY=" + project)).containsExactly("openai-api-key=" + project);
        assertThat(found("key " + serviceAccount + " and " + admin)).containsExactly(
                "openai-api-key=" + serviceAccount, "openai-api-key=" + admin);
        assertThat(found("\"" + legacy + "\"")).containsExactly("openai-api-key=" + legacy);
    }

    @Test
    void shouldNotMistakeSkWordsOrPlaceholdersForOpenAiKeys() {
        assertThat(found("pip install scikit-learn; import sk-learn; a task-force on risk-free sk-video")).isEmpty();
        assertThat(found("OPENAI_API_KEY=sk-proj-XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX")).isEmpty();
        assertThat(found("api_key=sk-proj-your-api-key-goes-here-1234567890abcdef")).isEmpty();
    }

    @Test
    void shouldNotReportAKeyGluedInsideALongerToken() {
        String key = fake.openAiProjectKey();

        assertThat(found("prefix" + key)).isEmpty();
        assertThat(found("task" + fake.openAiLegacyKey())).isEmpty();
    }

    @Test
    void shouldFindAKeyRightAfterAnEscapedLineBreak() {
        String key = fake.gitHubToken();

        assertThat(found("{\"notes\": \"first line\\n" + key + "\"}")).containsExactly("github-token=" + key);
    }

    @Test
    void shouldFindAwsKeyIdsOfEveryTypeButNotTheDocumentationExample() {
        for (String prefix : new String[] {"AKIA", "ASIA", "ABIA", "ACCA"}) {
            String id = prefix + fake.chars(FakeSecrets.UPPER + "234567", 16);
            assertThat(found("aws_access_key_id=" + id)).containsExactly("aws-access-key-id=" + id);
        }
        assertThat(found("AKIAIOSFODNN7EXAMPLE")).isEmpty();
        assertThat(found("AKIAXXXXXXXXXXXXXXXX")).isEmpty();
        assertThat(found("XAKIA" + fake.chars(FakeSecrets.UPPER, 16))).isEmpty();
    }

    @Test
    void shouldFindAwsSecretKeysOnlyNearAnAwsKeyword() {
        String secret = fake.awsSecretKey();

        assertThat(found("aws_secret_access_key = " + secret)).containsExactly("aws-secret-access-key=" + secret);
        assertThat(found("{\"SecretAccessKey\": \"" + secret + "\"}")).containsExactly("aws-secret-access-key=" + secret);
        String id = fake.awsAccessKeyId();
        assertThat(found(id + "," + secret)).containsExactly("aws-access-key-id=" + id, "aws-secret-access-key=" + secret);
        assertThat(found("checksum " + secret)).isEmpty();
    }

    @Test
    void shouldNotTakeAHexDigestOrTheDocumentationKeyForAnAwsSecret() {
        assertThat(found("aws sha1 da39a3ee5e6b4b0d3255bfef95601890afd80709")).isEmpty();
        assertThat(found("AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY")).isEmpty();
    }

    @Test
    void shouldFindClassicAndFineGrainedGitHubTokens() {
        for (String prefix : new String[] {"ghp_", "gho_", "ghu_", "ghs_", "ghr_"}) {
            String token = prefix + fake.chars(FakeSecrets.ALNUM, 36);
            assertThat(found("token " + token)).containsExactly("github-token=" + token);
        }
        String fineGrained = "github_pat_" + fake.chars(FakeSecrets.ALNUM, 22) + "_" + fake.chars(FakeSecrets.ALNUM, 59);
        assertThat(found(fineGrained)).containsExactly("github-token=" + fineGrained);
        assertThat(found("ghp_" + fake.chars(FakeSecrets.ALNUM, 35))).as("one character short").isEmpty();
        assertThat(found("ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx")).isEmpty();
    }

    @Test
    void shouldFindSlackTokensAndWebhooks() {
        String bot = fake.slackBotToken();
        String webhook = "hooks.slack.com/services/T" + fake.chars("ABCDEFGH0123456789", 8) + "/B"
                + fake.chars("ABCDEFGH0123456789", 10) + "/" + fake.chars(FakeSecrets.ALNUM, 24);

        assertThat(found("SLACK_BOT_TOKEN=" + bot)).containsExactly("slack-token=" + bot);
        assertThat(found("post to https://" + webhook + " now")).containsExactly("slack-token=" + webhook);
        assertThat(found("SLACK_BOT_TOKEN=xoxb-your-bot-token-here")).isEmpty();
        assertThat(found("https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX")).isEmpty();
    }

    @Test
    void shouldFindStripeSecretAndRestrictedKeysButNotPublishableOnes() {
        String live = "sk_live_" + fake.chars(FakeSecrets.ALNUM, 24);
        String restricted = "rk_live_" + fake.chars(FakeSecrets.ALNUM, 99);
        String test = "sk_test_" + fake.chars(FakeSecrets.ALNUM, 24);

        assertThat(found(live + " " + restricted + " " + test))
                .containsExactly("stripe-key=" + live, "stripe-key=" + restricted, "stripe-key=" + test);
        assertThat(found("pk_live_" + fake.chars(FakeSecrets.ALNUM, 24))).isEmpty();
    }

    @Test
    void shouldFindGoogleApiKeys() {
        String key = fake.googleApiKey();

        assertThat(found("https://maps.googleapis.com/maps/api/js?key=" + key + "&callback=init"))
                .containsExactly("google-api-key=" + key);
        assertThat(found("AIza" + fake.chars(FakeSecrets.BASE64URL, 36))).as("too long").isEmpty();
    }
}
