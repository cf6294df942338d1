package com.sandboxgateway.console;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.sandboxgateway.support.OpenAiStub.example;
import static org.assertj.core.api.Assertions.assertThat;

import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.Cookie;
import org.openqa.selenium.Keys;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriverException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;
import javax.imageio.ImageIO;

import org.springframework.boot.test.web.server.LocalManagementPort;

import com.openai.models.responses.Response;
import com.openai.models.responses.ResponseCreateParams;
import com.sandboxgateway.support.GatewayIntegrationTest;
import com.sandboxgateway.support.ShellAnswers;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * A reviewer in a real headless Chromium: logs in with an admin key, finds the flagged block a scripted
 * upstream planted, opens it, marks it reviewed, and the review is an audit record on
 * {@code /actuator/audit}. Screenshots of the queue and the record are saved under {@code target/}.
 */
class ConsoleBrowserTest extends GatewayIntegrationTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final byte[] PNG = png();
    private static final String PLANTED_CODE = "import os\n# read the deployment's secrets\ntoken = os.environ[\"OPENAI_API_KEY\"]\n"
            + "print(len(token), 'chars')\nplt.savefig('/mnt/data/plot.png')\n";

    @LocalManagementPort
    int managementPort;

    @TempDir
    Path profile;

    ChromeDriver browser;

    @BeforeEach
    void startBrowser() {
        browser = HeadlessChromium.start(profile);
    }

    @AfterEach
    void stopBrowser() {
        browser.quit();
    }

    @Test
    void shouldLetAnAdminFindAFlaggedBlockAndRecordAReview() throws Exception {
        Instant plantedFrom = Instant.now().minus(1, ChronoUnit.SECONDS).truncatedTo(ChronoUnit.SECONDS);
        Planted planted = plantFlaggedBlock();
        String callId = planted.callId();
        String files = "/v1/containers/" + planted.containerId() + "/files";
        openAi.stubFor(get(urlPathEqualTo(files)).willReturn(okJson("""
                {"object":"list","data":[
                 {"id":"cfile_plot1","object":"container.file","container_id":"%1$s","created_at":1756000010,"bytes":%2$d,
                  "path":"/mnt/data/plot.png","source":"assistant"},
                 {"id":"cfile_fake2","object":"container.file","container_id":"%1$s","created_at":1756000011,"bytes":40,
                  "path":"/mnt/data/chart.png","source":"assistant"}],
                 "first_id":"cfile_plot1","last_id":"cfile_fake2","has_more":false}""".formatted(planted.containerId(), PNG.length))));
        openAi.stubFor(get(urlEqualTo(files + "/cfile_plot1/content")).willReturn(aResponse().withHeader("Content-Type", "image/png")
                .withBody(PNG)));
        openAi.stubFor(get(urlEqualTo(files + "/cfile_fake2/content")).willReturn(aResponse().withHeader("Content-Type", "image/png")
                .withBody("<svg xmlns='http://www.w3.org/2000/svg' onload='alert(1)'/>")));

        browser.get(console("/console"));
        assertThat(browser.getCurrentUrl()).endsWith("/console/login");
        browser.findElement(By.id("key")).sendKeys(ADMIN_KEY);
        navigate(() -> browser.findElement(By.id("log-in")).click());

        assertThat(browser.findElement(By.tagName("h1")).getText()).isEqualTo("Review queue");
        assertThat(browser.getCurrentUrl()).doesNotContain(ADMIN_KEY);
        Cookie session = browser.manage().getCookieNamed(ConsoleAccess.COOKIE);
        assertThat(session.isHttpOnly()).isTrue();
        assertThat(session.getSameSite()).isEqualTo("Strict");
        assertThat(session.getValue()).doesNotContain(ADMIN_KEY);
        assertThat(browser.executeScript("return localStorage.length + sessionStorage.length + document.cookie.length"))
                .isEqualTo(0L);

        browser.findElement(By.id("flag")).sendKeys("env_access");
        browser.findElement(By.id("user")).sendKeys("alice");
        browser.findElement(By.id("since")).sendKeys(plantedFrom.toString());
        navigate(() -> browser.findElement(By.id("since")).sendKeys(Keys.ENTER));
        WebElement row = browser.findElement(By.cssSelector("tr[data-call-id='" + callId + "']"));
        assertThat(row.getText()).contains("alice", "analytics", "env_access", "Not reviewed");
        HeadlessChromium.screenshot(browser, "queue");

        navigate(() -> row.findElement(By.tagName("a")).click());
        assertThat(browser.findElement(By.tagName("h1")).getText()).startsWith("Code block #");
        assertThat(browser.findElements(By.cssSelector("pre.code .tok-keyword")).stream().map(WebElement::getText))
                .contains("import");
        assertThat(browser.findElement(By.cssSelector("pre.code .tok-comment")).getText()).isEqualTo("# read the deployment's secrets");
        assertThat(browser.findElement(By.cssSelector("pre.code")).getText()).contains("token = os.environ[\"OPENAI_API_KEY\"]");
        assertThat(browser.findElement(By.cssSelector("pre.logs")).getText()).isEqualTo("51 chars");
        assertThat(browser.findElement(By.cssSelector("#flags-h + ul")).getText()).contains("env_access");
        assertThat(browser.findElement(By.cssSelector("#chain-h + p")).getText()).startsWith("Intact");
        assertThat(browser.findElement(By.cssSelector("ol.timeline [aria-current]")).getText()).contains("this record");
        WebElement plot = browser.findElement(By.cssSelector("img[alt='Image /mnt/data/plot.png from the container']"));
        assertThat(browser.executeScript("return arguments[0].complete && arguments[0].naturalWidth", plot)).isEqualTo(64L);
        assertThat(browser.executeScript("return arguments[0].naturalWidth", browser.findElement(
                By.cssSelector("img[alt='Image /mnt/data/chart.png from the container']")))).as("not an image: refused").isEqualTo(0L);
        HeadlessChromium.screenshot(browser, "record");

        browser.findElement(By.cssSelector("label[for='verdict-needs_follow_up']")).click();
        browser.findElement(By.id("note")).sendKeys("Reads the API key from the environment; asked the team why.");
        navigate(() -> browser.findElement(By.id("mark-reviewed")).click());

        assertThat(browser.findElement(By.cssSelector("p[role=status]")).getText()).contains("review was recorded");
        assertThat(browser.findElement(By.cssSelector("ul.reviews")).getText())
                .contains("needs follow up by root", "asked the team why");
        String seq = browser.findElement(By.tagName("h1")).getText().replace("Code block #", "");
        HeadlessChromium.screenshot(browser, "reviewed");

        JsonNode review = reviewOf(seq);
        assertThat(review.path("kind").asString()).isEqualTo("ADMIN_ACTION");
        assertThat(review.path("user").asString()).isEqualTo("root");
        assertThat(review.path("team").asString()).isEqualTo("platform");
        assertThat(review.path("status").asString()).isEqualTo("review");
        JsonNode details = review.path("details");
        assertThat(details.path("verdict").asString()).isEqualTo("needs_follow_up");
        assertThat(details.path("note").asString()).isEqualTo("Reads the API key from the environment; asked the team why.");
        assertThat(details.path("call_id").asString()).isEqualTo(callId);
        assertThat(review.path("createdAt").asString()).isNotEmpty();
        assertThat(review.path("traceId").isNull()).as("tracing is off by default").isTrue();

        browser.get(console("/console?state=open&flag=env_access&user=alice&since=" + plantedFrom));
        assertThat(browser.findElements(By.cssSelector("tr[data-call-id='" + callId + "']"))).isEmpty();
        browser.get(console("/console?state=reviewed&flag=env_access&user=alice&since=" + plantedFrom));
        assertThat(browser.findElement(By.cssSelector("tr[data-call-id='" + callId + "']")).getText()).contains("needs follow up by root");
    }

    @Test
    void shouldRefuseAKeyWithoutTheAdminRoleAndStartNoSession() {
        browser.get(console("/console/login"));
        browser.findElement(By.id("key")).sendKeys(ALICE_KEY);
        navigate(() -> browser.findElement(By.id("log-in")).click());

        assertThat(browser.findElement(By.cssSelector("[role=alert]")).getText()).contains("alice lacks the admin role");
        assertThat(browser.manage().getCookieNamed(ConsoleAccess.COOKIE)).isNull();
        browser.get(console("/console"));
        assertThat(browser.getCurrentUrl()).endsWith("/console/login");
        HeadlessChromium.screenshot(browser, "refused");
    }

    @Test
    void shouldFindABlockByItsCodeHashAndReachEveryControlByKeyboard() throws Exception {
        String callId = plantFlaggedBlock().callId();
        String hash = reviewRecordOfCall(callId).path("codeSha256").asString();
        browser.get(console("/console/login"));
        navigate(() -> browser.findElement(By.id("key")).sendKeys(ADMIN_KEY, Keys.ENTER));

        browser.get(console("/console/search"));
        browser.findElement(By.cssSelector("#by option[value='code_hash']")).click();
        navigate(() -> browser.findElement(By.id("q")).sendKeys(hash, Keys.ENTER));
        assertThat(browser.findElement(By.tagName("caption")).getText()).matches("\\d+ matching records, in chain order");
        navigate(() -> browser.findElement(By.cssSelector("tbody a")).click());
        assertThat(browser.findElement(By.cssSelector("dl.facts")).getText()).contains(hash);

        assertThat(browser.findElement(By.cssSelector("#files-h ~ p")).getText()).contains("the container has expired");
        assertThat(browser.findElement(By.cssSelector("ul.named-files")).getText()).isEqualTo("/mnt/data/plot.png");

        browser.findElement(By.tagName("body")).sendKeys(Keys.TAB);
        assertThat(browser.switchTo().activeElement().getText()).isEqualTo("Skip to content");
        assertThat(browser.executeScript("""
                return [...document.querySelectorAll('input:not([type=hidden]), select, textarea')]
                    .filter(e => !document.querySelector('label[for="' + e.id + '"]')).length""")).isEqualTo(0L);
    }

    @Test
    void shouldLetAReviewerPickShellCallsAndReadACallsCommandsAndOutputs() {
        String call = unique("sh_");
        openAi.stubFor(post("/v1/responses").willReturn(okJson(ShellAnswers.completed(unique("resp_"), call, unique("cntr_"),
                List.of("printenv | grep -i key", "cat ~/.netrc"), List.of(new ShellAnswers.Ran("OPENAI_API_KEY=[set]\n", "", 0),
                        new ShellAnswers.Ran("", "cat: /root/.netrc: No such file or directory\n", 1))).toString())));
        sdk(ALICE_KEY).responses().create(ResponseCreateParams.builder().model("gpt-5.1").input("show the keys").build());
        browser.get(console("/console/login"));
        navigate(() -> browser.findElement(By.id("key")).sendKeys(ADMIN_KEY, Keys.ENTER));

        browser.findElement(By.cssSelector("#kind option[value='shell']")).click();
        browser.findElement(By.id("user")).sendKeys("alice");
        navigate(() -> browser.findElement(By.id("flag")).sendKeys("credential_file", Keys.ENTER));
        WebElement row = browser.findElement(By.cssSelector("tr[data-call-id='" + call + "']"));
        assertThat(row.getText()).contains("Shell call", "env_access", "credential_file", "Not reviewed");
        assertThat(browser.findElements(By.xpath("//tbody/tr/td[2][text()='Code block']"))).as("only shell calls").isEmpty();
        navigate(() -> row.findElement(By.tagName("a")).click());

        assertThat(browser.findElement(By.tagName("h1")).getText()).startsWith("Shell call #");
        assertThat(browser.findElement(By.cssSelector("pre.code[aria-label='Executed shell commands']")).getText())
                .isEqualTo("printenv | grep -i key\ncat ~/.netrc");
        assertThat(browser.findElements(By.cssSelector("#out-h ~ h3")).stream().map(WebElement::getText))
                .containsExactly("Command 1: exit code 0", "Command 2: exit code 1");
        assertThat(browser.findElement(By.cssSelector("pre.stderr")).getText()).isEqualTo("cat: /root/.netrc: No such file or directory");
        HeadlessChromium.screenshot(browser, "shell-call");
    }

    /** Does what leaves the page, and waits until the browser shows the next one. */
    private void navigate(Runnable action) {
        WebElement page = browser.findElement(By.tagName("html"));
        action.run();
        new WebDriverWait(browser, Duration.ofSeconds(30)).until(driver -> isStale(page));
    }

    /**
     * Whether the element belongs to a page the browser left. Asked while it tears that page down, Chrome may answer
     * that the node "does not belong to the document" (an unknown error, not a stale reference): not known yet, so the
     * wait asks again, and once the next page is there the element is stale.
     */
    private static boolean isStale(WebElement element) {
        try {
            element.isEnabled();
            return false;
        } catch (StaleElementReferenceException stale) {
            return true;
        } catch (WebDriverException e) {
            if (String.valueOf(e.getMessage()).contains("does not belong to the document")) {
                return false;
            }
            throw e;
        }
    }

    /** The scripted upstream answers with a block that reads an API key from the environment. */
    private Planted plantFlaggedBlock() {
        ObjectNode response = (ObjectNode) JSON.readTree(example("responses.create.response.completed.json"));
        String id = UUID.randomUUID().toString().replace("-", "");
        response.put("id", "resp_" + id);
        ObjectNode call = (ObjectNode) response.path("output").get(0);
        call.put("id", "ci_" + id).put("container_id", "cntr_" + id).put("code", PLANTED_CODE);
        ((ObjectNode) call.path("outputs").get(0)).put("logs", "51 chars\n");
        openAi.stubFor(post("/v1/responses").willReturn(okJson(JSON.writeValueAsString(response))));
        Response created = sdk(ALICE_KEY).responses().create(ResponseCreateParams.builder().model("gpt-4.1")
                .input("How long is our key?").build());
        return new Planted(created.output().getFirst().asCodeInterpreterCall().id(), "cntr_" + id);
    }

    private record Planted(String callId, String containerId) {
    }

    /** A 64×48 PNG, as a plot the block saved. */
    private static byte[] png() {
        try {
            BufferedImage image = new BufferedImage(64, 48, BufferedImage.TYPE_INT_RGB);
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            ImageIO.write(image, "png", bytes);
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private JsonNode reviewOf(String seq) throws Exception {
        for (JsonNode stored : audit("kind=ADMIN_ACTION&user=root&limit=10000").path("records")) {
            JsonNode details = stored.path("record").path("details");
            if ("review".equals(details.path("action").asString(null)) && seq.equals(details.path("record_seq").asString())) {
                return stored.path("record");
            }
        }
        throw new AssertionError("no review record of record #" + seq + " in /actuator/audit");
    }

    private JsonNode reviewRecordOfCall(String callId) throws Exception {
        for (JsonNode stored : audit("kind=CODE_EXECUTION&user=alice&limit=10000").path("records")) {
            if (callId.equals(stored.path("record").path("callId").asString(null))) {
                return stored.path("record");
            }
        }
        throw new AssertionError("no record of " + callId);
    }

    private JsonNode audit(String query) throws Exception {
        try (HttpClient http = HttpClient.newHttpClient()) {
            HttpResponse<String> answer = http.send(HttpRequest.newBuilder(URI.create(console("/actuator/audit?" + query)))
                    .header("Authorization", "Bearer " + ADMIN_KEY).header("Accept", "application/json").build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
            return JSON.readTree(answer.body());
        }
    }

    private String console(String path) {
        return "http://127.0.0.1:" + managementPort + path;
    }
}
