package com.sandboxgateway.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalManagementPort;

import com.sandboxgateway.support.GatewayIntegrationTest;

/**
 * Who gets into the console, over plain HTTP: admins by bearer header or session cookie, nobody else,
 * nothing on the public port, and no form accepted from outside the session.
 */
class ConsoleAccessTest extends GatewayIntegrationTest {

    @LocalManagementPort
    int managementPort;

    @Test
    void shouldServeTheQueueToAnAdminBearerAndRefuseOtherKeys() throws Exception {
        HttpResponse<String> admin = get("/console", "Bearer " + ADMIN_KEY);
        HttpResponse<String> user = get("/console", "Bearer " + ALICE_KEY);
        HttpResponse<String> unknown = get("/console", "Bearer sk-gw-not-a-key");

        assertThat(admin.statusCode()).isEqualTo(200);
        assertThat(admin.headers().firstValue("Content-Type")).hasValue("text/html;charset=UTF-8");
        assertThat(admin.body()).contains("<h1>Review queue</h1>").doesNotContain("Log out");
        assertThat(user.statusCode()).isEqualTo(403);
        assertThat(user.body()).contains("alice lacks the admin role");
        assertThat(unknown.statusCode()).isEqualTo(401);
        assertThat(unknown.headers().firstValue("WWW-Authenticate")).hasValue("Bearer");
        assertThat(unknown.body()).doesNotContain("sk-gw-not-a-key");
    }

    @Test
    void shouldSendABrowserWithoutCredentialsToTheLoginForm() throws Exception {
        HttpResponse<String> page = get("/console/records/1", null);
        HttpResponse<String> form = get("/console/login", null);

        assertThat(page.statusCode()).isEqualTo(303);
        assertThat(page.headers().firstValue("Location")).hasValue("/console/login");
        assertThat(form.statusCode()).isEqualTo(200);
        assertThat(form.body()).contains("<form method=\"post\" action=\"/console/login\"", "type=\"password\"");
        assertThat(form.headers().firstValue("Content-Security-Policy")).hasValueSatisfying(csp ->
                assertThat(csp).contains("default-src 'none'", "frame-ancestors 'none'"));
        assertThat(form.headers().firstValue("Cache-Control")).hasValue("no-store");
    }

    @Test
    void shouldRefuseAReviewFormThatLacksTheSessionsToken() throws Exception {
        String cookie = login(ADMIN_KEY).headers().firstValue("Set-Cookie").orElseThrow();
        assertThat(cookie).contains("HttpOnly", "SameSite=Strict", "Path=/console").doesNotContain(ADMIN_KEY);
        String session = cookie.substring(0, cookie.indexOf(';'));

        HttpResponse<String> forged = send(HttpRequest.newBuilder(uri("/console/records/1/review")).header("Cookie", session)
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("verdict=benign&note=forged")));

        assertThat(forged.statusCode()).isEqualTo(403);
        assertThat(forged.body()).contains("did not come from this console session");
        assertThat(get("/console", null, session).statusCode()).isEqualTo(200);
    }

    @Test
    void shouldStartNoSessionForANonAdminKey() throws Exception {
        HttpResponse<String> refused = login(ALICE_KEY);

        assertThat(refused.statusCode()).isEqualTo(403);
        assertThat(refused.headers().firstValue("Set-Cookie")).isEmpty();
    }

    @Test
    void shouldNotServeTheConsoleOnThePublicPort() throws Exception {
        HttpResponse<String> answer = raw(HttpRequest.newBuilder().header("Authorization", "Bearer " + ADMIN_KEY).GET(), "/console");

        assertThat(answer.statusCode()).isEqualTo(404);
        assertThat(answer.body()).doesNotContain("Review queue");
    }

    private HttpResponse<String> login(String key) throws Exception {
        return send(HttpRequest.newBuilder(uri("/console/login")).header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("key=" + key)));
    }

    private HttpResponse<String> get(String path, String authorization, String... cookie) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri(path)).GET();
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        for (String value : cookie) {
            request.header("Cookie", value);
        }
        return send(request);
    }

    private static HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
        try (HttpClient http = HttpClient.newHttpClient()) {
            return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        }
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + managementPort + path);
    }
}
