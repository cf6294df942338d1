package com.sandboxgateway.policy.input;

import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.sandboxgateway.support.PlantedSecrets.githubToken;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Random;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.test.context.TestPropertySource;

import com.openai.core.JsonValue;
import com.openai.errors.BadRequestException;
import com.openai.errors.NotFoundException;
import com.openai.models.conversations.ConversationCreateParams;
import com.openai.models.responses.ResponseCreateParams;
import com.openai.models.skills.SkillCreateParams;
import com.sandboxgateway.policy.input.InputPlaces.Kind;
import com.sandboxgateway.support.GatewayIntegrationTest;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Every governed member of every union, sent through the official SDK with what it can carry planted in
 * it: a credential is blocked naming its place, a file holding a dropped column reaches OpenAI without
 * it, and another user's object is 404. Every governed type has a sample here, so governing a new
 * member means proving it.
 */
@TestPropertySource(properties = "gateway.policy.org.tools.allowed=code_interpreter,function,custom,shell,shell-local")
class GovernedPlacesTest extends GatewayIntegrationTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String ORDERS = "id,customer_ssn,amount\n1,123-45-6789,9.50\n";

    /**
     * One governed member with its places. {@code $SECRET}, {@code $CSV} and {@code $ID} mark where the
     * credential, the file and the foreign id go; a null template means the member has no such place.
     */
    record Sample(InputUnion union, String type, String withSecret, String secretAt, String withFile, String fileAt,
                  String withId, Kind idKind, String idAt) {

        @Override
        public String toString() {
            return union.displayName() + " " + type;
        }
    }

    static Stream<Sample> samples() {
        return Stream.of(
                item("message", "{'role':'user','content':'use $SECRET'}", "input[0].content",
                        "{'type':'message','role':'user','content':[{'type':'input_file','filename':'o.csv','file_data':'$CSV'}]}",
                        "input[0].content[0].file_data",
                        "{'type':'message','id':'$ID','role':'assistant','status':'completed','content':[{'type':'output_text','text':'ok','annotations':[]}]}",
                        Kind.ITEM, "input[0].id"),
                item("function_call", "{'type':'function_call','call_id':'c1','name':'f','arguments':'{\\\"t\\\":\\\"$SECRET\\\"}'}",
                        "input[0].arguments", null, null,
                        "{'type':'function_call','id':'$ID','call_id':'c1','name':'f','arguments':'{}'}", Kind.ITEM, "input[0].id"),
                item("function_call_output", "{'type':'function_call_output','call_id':'c1','output':'$SECRET'}", "input[0].output",
                        "{'type':'function_call_output','call_id':'c1','output':[{'type':'input_file','filename':'o.csv','file_data':'$CSV'}]}",
                        "input[0].output[0].file_data",
                        "{'type':'function_call_output','call_id':'c1','output':[{'type':'input_file','file_id':'$ID'}]}",
                        Kind.FILE, "input[0].output[0].file_id"),
                item("custom_tool_call", "{'type':'custom_tool_call','call_id':'c1','name':'f','input':'$SECRET'}", "input[0].input",
                        null, null, "{'type':'custom_tool_call','id':'$ID','call_id':'c1','name':'f','input':'x'}", Kind.ITEM,
                        "input[0].id"),
                item("custom_tool_call_output", "{'type':'custom_tool_call_output','call_id':'c1','output':'$SECRET'}",
                        "input[0].output",
                        "{'type':'custom_tool_call_output','call_id':'c1','output':[{'type':'input_file','filename':'o.csv','file_data':'$CSV'}]}",
                        "input[0].output[0].file_data",
                        "{'type':'custom_tool_call_output','call_id':'c1','output':[{'type':'input_image','detail':'auto','file_id':'$ID'}]}",
                        Kind.FILE, "input[0].output[0].file_id"),
                item("reasoning", "{'type':'reasoning','summary':[{'type':'summary_text','text':'$SECRET'}]}",
                        "input[0].summary[0].text", null, null,
                        "{'type':'reasoning','id':'$ID','summary':[],'encrypted_content':'gAAAAB'}", Kind.ITEM, "input[0].id"),
                item("reasoning", "{'type':'reasoning','summary':[],'encrypted_content':'$SECRET'}", "input[0].encrypted_content",
                        null, null, null, null, null),
                item("compaction", "{'type':'compaction','encrypted_content':'gAAAAB $SECRET'}", "input[0].encrypted_content",
                        null, null, "{'type':'compaction','id':'$ID','encrypted_content':'gAAAAB'}", Kind.ITEM, "input[0].id"),
                item("code_interpreter_call", "{'type':'code_interpreter_call','status':'completed','code':'k = \\\"$SECRET\\\"','outputs':[]}",
                        "input[0].code", null, null,
                        "{'type':'code_interpreter_call','status':'completed','code':'print(1)','container_id':'$ID','outputs':[]}",
                        Kind.CONTAINER, "input[0].container_id"),
                item("shell_call", "{'type':'shell_call','call_id':'c1','action':{'commands':['ls', 'export T=$SECRET']}}",
                        "input[0].action.commands[1]", null, null, "{'type':'shell_call','call_id':'c1','action':{'commands':['ls']},"
                                + "'status':'completed','environment':{'type':'container_reference','container_id':'$ID'}}",
                        Kind.CONTAINER, "input[0].environment.container_id"),
                item("shell_call_output", "{'type':'shell_call_output','call_id':'c1','output':[{'stdout':'','stderr':'bad $SECRET',"
                                + "'outcome':{'type':'exit','exit_code':1}}]}", "input[0].output[0].stderr", null, null,
                        "{'type':'shell_call_output','id':'$ID','call_id':'c1','output':[{'stdout':'ok','stderr':'',"
                                + "'outcome':{'type':'exit','exit_code':0}}]}", Kind.ITEM, "input[0].id"),
                item("item_reference", null, null, null, null, "{'type':'item_reference','id':'$ID'}", Kind.ITEM, "input[0].id"),
                item("compaction_trigger", null, null, null, null, null, null, null),
                part("input_text", "{'role':'user','content':[{'type':'input_text','text':'$SECRET'}]}", "input[0].content[0].text",
                        null, null, null, null, null),
                part("input_image", null, null,
                        "{'role':'user','content':[{'type':'input_image','detail':'auto','image_url':'$PNG'}]}",
                        "input[0].content[0].image_url",
                        "{'role':'user','content':[{'type':'input_image','detail':'auto','file_id':'$ID'}]}", Kind.FILE,
                        "input[0].content[0].file_id"),
                part("input_file", null, null,
                        "{'role':'user','content':[{'type':'input_file','filename':'o.csv','file_data':'$CSV'}]}",
                        "input[0].content[0].file_data",
                        "{'role':'user','content':[{'type':'input_file','file_id':'$ID'}]}", Kind.FILE, "input[0].content[0].file_id"),
                part("output_text", "{'type':'message','role':'assistant','content':[{'type':'output_text','text':'$SECRET','annotations':[]}]}",
                        "input[0].content[0].text", null, null, null, null, null),
                part("refusal", "{'type':'message','role':'assistant','content':[{'type':'refusal','refusal':'$SECRET'}]}",
                        "input[0].content[0].refusal", null, null, null, null, null),
                new Sample(InputUnion.CODE_OUTPUT, "logs",
                        "{'type':'code_interpreter_call','status':'completed','code':'print(1)','outputs':[{'type':'logs','logs':'$SECRET'}]}",
                        "input[0].outputs[0].logs", null, null, null, null, null),
                new Sample(InputUnion.CODE_OUTPUT, "image", null, null,
                        "{'type':'code_interpreter_call','status':'completed','code':'plot()','outputs':[{'type':'image','url':'$PNG'}]}",
                        "input[0].outputs[0].url", null, null, null),
                annotation("file_citation", null, null,
                        "{'type':'file_citation','file_id':'$ID','index':0,'filename':'o.csv'}", Kind.FILE, "file_id"),
                annotation("file_path", null, null, "{'type':'file_path','file_id':'$ID','index':0}", Kind.FILE, "file_id"),
                annotation("container_file_citation", null, null, "{'type':'container_file_citation','container_id':'$ID',"
                        + "'file_id':'cfile_1','filename':'plot.png','start_index':0,'end_index':4}", Kind.CONTAINER, "container_id"),
                annotation("url_citation", "{'type':'url_citation','url':'https://example.com','title':'use $SECRET',"
                        + "'start_index':0,'end_index':4}", "title", null, null, null),
                tool("code_interpreter", "{'type':'code_interpreter','container':{'type':'auto','network_policy':{'type':'allowlist',"
                                + "'allowed_domains':['pypi.org'],'domain_secrets':[{'domain':'pypi.org','name':'T','value':'$SECRET'}]}}}",
                        "tools[0].container.network_policy.domain_secrets[0].value",
                        "{'type':'code_interpreter','container':'$ID'}", Kind.CONTAINER, "tools[0].container"),
                tool("shell", "{'type':'shell','environment':{'type':'container_auto','network_policy':{'type':'allowlist',"
                                + "'allowed_domains':['pypi.org'],'domain_secrets':[{'domain':'pypi.org','name':'T','value':'$SECRET'}]}}}",
                        "tools[0].environment.network_policy.domain_secrets[0].value",
                        "{'type':'shell','environment':{'type':'container_reference','container_id':'$ID'}}", Kind.CONTAINER,
                        "tools[0].environment.container_id"),
                environment("container_auto", "{'type':'container_auto','network_policy':{'type':'allowlist','allowed_domains':"
                                + "['pypi.org'],'domain_secrets':[{'domain':'pypi.org','name':'T','value':'$SECRET'}]}}",
                        "network_policy.domain_secrets[0].value", "{'type':'container_auto','file_ids':['$ID']}", Kind.FILE,
                        "file_ids[0]"),
                environment("container_reference", null, null, "{'type':'container_reference','container_id':'$ID'}",
                        Kind.CONTAINER, "container_id"),
                // A local skill's name, description and path reach the model's context.
                environment("local", "{'type':'local','skills':[{'name':'csv','description':'uses $SECRET','path':'skills/csv'}]}",
                        "skills[0].description", null, null, null),
                tool("function", "{'type':'function','name':'f','strict':false,'description':'calls with $SECRET',"
                        + "'parameters':{'type':'object','properties':{}}}", "tools[0].description", null, null, null),
                tool("custom", "{'type':'custom','name':'f','description':'calls with $SECRET'}", "tools[0].description",
                        null, null, null),
                // A bundle's files are proven in SkillsGovernedTest; here the texts and the id.
                skill("inline", "{'type':'inline','name':'csv','description':'uses $SECRET','source':{'type':'base64',"
                        + "'media_type':'application/zip','data':'UEsFBgAAAAAAAAAAAAAAAAAAAAAAAA=='}}", "description", null, null),
                skill("skill_reference", null, null, "{'type':'skill_reference','skill_id':'$ID'}", "skill_id"));
    }

    @Test
    void shouldHaveASampleForEveryGovernedMember() {
        Set<String> governed = new TreeSet<>();
        for (InputUnion union : InputUnion.values()) {
            union.governed().forEach(type -> governed.add(union + " " + type));
        }
        Set<String> sampled = samples().map(sample -> sample.union() + " " + sample.type())
                .collect(Collectors.toCollection(TreeSet::new));
        assertThat(sampled).isEqualTo(governed);
    }

    @Test
    void shouldForwardOpenAisCiphertextUnchanged() {
        openAi.stubFor(post("/v1/responses").willReturn(okJson(completedResponse(unique("resp_"), unique("cntr_")))));
        byte[] sealed = new byte[6_000];
        new Random(20_260_821).nextBytes(sealed); // seeded: the same bytes every run
        String ciphertext = "gAAAAAB" + Base64.getUrlEncoder().encodeToString(sealed);

        sdk(ALICE_KEY).responses().create(ResponseCreateParams.builder().model("gpt-4.1")
                .putAdditionalBodyProperty("input", JsonValue.from(List.of(Map.of("type", "reasoning", "summary", List.of(),
                        "encrypted_content", ciphertext), Map.of("role", "user", "content", "go on")))).build());

        assertThat(sentBody().at("/input/0/encrypted_content").asString()).isEqualTo(ciphertext);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("samples")
    void shouldBlockACredentialPlantedInIt(Sample sample) {
        if (sample.withSecret() == null) {
            return;
        }
        String token = githubToken();

        assertThatThrownBy(() -> send(sample, sample.withSecret().replace("$SECRET", token)))
                .isInstanceOfSatisfying(BadRequestException.class, e -> {
                    assertThat(e.code()).hasValue("secret_detected");
                    assertThat(e.param()).hasValue(sample.secretAt());
                    assertThat(e.getMessage()).doesNotContain(token);
                });
        openAi.verify(0, anyRequestedFor(anyUrl()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("samples")
    void shouldDropTheColumnsOfAFileInIt(Sample sample) {
        if (sample.withFile() == null) {
            return;
        }
        openAi.stubFor(post("/v1/responses").willReturn(okJson(completedResponse(unique("resp_"), unique("cntr_")))));

        // An image holding a table is judged as what it holds, not by its media type.
        send(sample, sample.withFile().replace("$CSV", "data:text/csv;base64," + base64(ORDERS))
                .replace("$PNG", "data:image/png;base64," + base64(ORDERS)));

        String sent = sentBody().at(pointer(sample.fileAt())).asString();
        String file = new String(Base64.getDecoder().decode(sent.substring(sent.indexOf(',') + 1)), StandardCharsets.UTF_8);
        assertThat(file).startsWith("id,amount\n").doesNotContain("customer_ssn").doesNotContain("123-45-6789");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("samples")
    void shouldRefuseAnotherUsersObjectInIt(Sample sample) throws IOException {
        if (sample.withId() == null) {
            return;
        }
        String bobs = sample.union() == InputUnion.SKILL ? bobsSkill() : bobsObject(sample.idKind());
        openAi.resetRequests();

        assertThatThrownBy(() -> send(sample, sample.withId().replace("$ID", bobs)))
                .isInstanceOfSatisfying(NotFoundException.class, e -> {
                    assertThat(e.code()).hasValue("not_found");
                    assertThat(e.param()).hasValue(sample.idAt());
                });
        openAi.verify(0, anyRequestedFor(anyUrl()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("samples")
    void shouldForwardAMemberWithNothingToGovernUnchanged(Sample sample) {
        if (sample.withSecret() != null || sample.withFile() != null || sample.withId() != null) {
            return;
        }
        openAi.stubFor(post("/v1/responses").willReturn(okJson(completedResponse(unique("resp_"), unique("cntr_")))));
        String member = switch (sample.type()) {
            case "compaction_trigger" -> "{'type':'compaction_trigger'}";
            default -> throw new IllegalArgumentException(sample.type());
        };

        send(sample, member);

        String place = sample.union() == InputUnion.INPUT_ITEM ? "input" : "tools";
        assertThat(sentBody().path(place).get(0)).isEqualTo(JSON.readTree(member.replace('\'', '"')));
    }

    @Test
    void shouldBlockACredentialInMetadataPromptVariablesAndAnOutputSchema() {
        String token = githubToken();
        ResponseCreateParams inMetadata = ResponseCreateParams.builder().model("gpt-4.1").input("hi")
                .metadata(ResponseCreateParams.Metadata.builder().putAdditionalProperty("ticket", JsonValue.from(token)).build())
                .build();
        ResponseCreateParams inVariable = ResponseCreateParams.builder().model("gpt-4.1")
                .putAdditionalBodyProperty("prompt", JsonValue.from(Map.of("id", "pmpt_1", "variables",
                        Map.of("repo", "clone with " + token)))).build();
        ResponseCreateParams inSchema = ResponseCreateParams.builder().model("gpt-4.1").input("hi")
                .putAdditionalBodyProperty("text", JsonValue.from(Map.of("format", Map.of("type", "json_schema", "name", "r",
                        "schema", Map.of("type", "object", "properties", Map.of("repo", Map.of("type", "string",
                                "description", "token " + token))))))).build();

        for (var request : List.of(inMetadata, inVariable, inSchema)) {
            assertThatThrownBy(() -> sdk(ALICE_KEY).responses().create(request))
                    .isInstanceOfSatisfying(BadRequestException.class, e -> {
                        assertThat(e.code()).hasValue("secret_detected");
                        assertThat(e.param().orElseThrow()).isIn("metadata.ticket", "prompt.variables.repo",
                                "text.format.schema.properties.repo.description");
                        assertThat(e.getMessage()).doesNotContain(token);
                    });
        }
        openAi.verify(0, anyRequestedFor(anyUrl()));
    }

    @Test
    void shouldDropTheColumnsOfAFileGivenAsAPromptVariable() {
        openAi.stubFor(post("/v1/responses").willReturn(okJson(completedResponse(unique("resp_"), unique("cntr_")))));

        sdk(ALICE_KEY).responses().create(ResponseCreateParams.builder().model("gpt-4.1")
                .putAdditionalBodyProperty("prompt", JsonValue.from(Map.of("id", "pmpt_1", "variables", Map.of(
                        "orders", Map.of("type", "input_file", "filename", "o.csv",
                                "file_data", "data:text/csv;base64," + base64(ORDERS)))))).build());

        String sent = sentBody().at("/prompt/variables/orders/file_data").asString();
        assertThat(new String(Base64.getDecoder().decode(sent.substring(sent.indexOf(',') + 1)), StandardCharsets.UTF_8))
                .isEqualTo("id,amount\n1,9.50\n");
    }

    private void send(Sample sample, String member) {
        Object parsed = JSON.readValue(member.replace('\'', '"'), Object.class);
        ResponseCreateParams.Builder request = ResponseCreateParams.builder().model("gpt-4.1");
        if (sample.union() == InputUnion.TOOL || sample.union() == InputUnion.SKILL
                || sample.union() == InputUnion.SHELL_ENVIRONMENT) {
            request.input("Plot revenue").putAdditionalBodyProperty("tools", JsonValue.from(List.of(parsed)));
        } else {
            request.putAdditionalBodyProperty("input", JsonValue.from(List.of(parsed)));
        }
        sdk(ALICE_KEY).responses().create(request.build());
    }

    /** An object of the kind that Bob (another team) created through the gateway. */
    private String bobsObject(Kind kind) throws IOException {
        return switch (kind) {
            case FILE -> createdFile(BOB_KEY, unique("file-"));
            case CONTAINER -> createdContainer(BOB_KEY, unique("cntr_"));
            // A cited container file sits beside its container, which is checked first: ItemOwnershipTest covers it.
            case CONTAINER_FILE -> throw new IllegalArgumentException("no sample names a container file without its container");
            case RESPONSE -> createdResponse(BOB_KEY, unique("resp_"));
            case ITEM -> {
                String item = unique("msg_");
                openAi.stubFor(post("/v1/responses").willReturn(okJson(completedResponse(unique("resp_"), unique("cntr_"))
                        .replace("msg_68a93abc0f7c81a3b2e1d0c9f8e7d6c5", item))));
                sdk(BOB_KEY).responses().create(ResponseCreateParams.builder().model("gpt-4.1").input("hi").build());
                yield item;
            }
            case CONVERSATION -> {
                String conversation = unique("conv_");
                openAi.stubFor(post("/v1/conversations").willReturn(okJson(
                        "{\"id\":\"" + conversation + "\",\"object\":\"conversation\",\"created_at\":1741900000,\"metadata\":{}}")));
                yield sdk(BOB_KEY).conversations().create(ConversationCreateParams.builder().build()).id();
            }
        };
    }

    /** A skill that Bob (another team) uploaded through the gateway. */
    private String bobsSkill() throws IOException {
        String skill = unique("skill_");
        openAi.stubFor(post("/v1/skills").willReturn(okJson("{\"id\":\"" + skill + "\",\"object\":\"skill\",\"name\":\"s\","
                + "\"description\":\"d\",\"created_at\":1741900000,\"default_version\":\"1\",\"latest_version\":\"1\"}")));
        Path bundle = Files.createTempFile("skill", ".zip");
        try {
            try (ZipOutputStream zip = new ZipOutputStream(Files.newOutputStream(bundle))) {
                zip.putNextEntry(new ZipEntry("s/SKILL.md"));
                zip.write("---\nname: s\ndescription: d\n---\nSay hello.\n".getBytes(StandardCharsets.UTF_8));
            }
            return sdk(BOB_KEY).skills().create(SkillCreateParams.builder().files(bundle).build()).id();
        } finally {
            Files.delete(bundle);
        }
    }

    private static JsonNode sentBody() {
        List<String> bodies = new ArrayList<>();
        openAi.findAll(postRequestedFor(urlEqualTo("/v1/responses"))).forEach(request -> bodies.add(request.getBodyAsString()));
        assertThat(bodies).hasSize(1);
        return JSON.readTree(bodies.getFirst());
    }

    /** {@code input[0].output[1]} as the JSON pointer {@code /input/0/output/1}. */
    private static String pointer(String path) {
        return "/" + path.replace("[", ".").replace("]", "").replace('.', '/');
    }

    private static Sample item(String type, String withSecret, String secretAt, String withFile, String fileAt, String withId,
                               Kind idKind, String idAt) {
        return new Sample(InputUnion.INPUT_ITEM, type, withSecret, secretAt, withFile, fileAt, withId, idKind, idAt);
    }

    private static Sample part(String type, String withSecret, String secretAt, String withFile, String fileAt, String withId,
                               Kind idKind, String idAt) {
        return new Sample(InputUnion.CONTENT_PART, type, withSecret, secretAt, withFile, fileAt, withId, idKind, idAt);
    }

    /** An annotation of replayed assistant text; {@code secretAt} and {@code idAt} are relative to the annotation. */
    private static Sample annotation(String type, String withSecret, String secretAt, String withId, Kind idKind, String idAt) {
        String at = "input[0].content[0].annotations[0].";
        return new Sample(InputUnion.ANNOTATION, type, cited(withSecret), secretAt == null ? null : at + secretAt, null, null,
                cited(withId), idKind, idAt == null ? null : at + idAt);
    }

    /** A skill of a code-interpreter auto container; {@code secretAt} and {@code idAt} are relative to the skill. */
    private static Sample skill(String type, String withSecret, String secretAt, String withId, String idAt) {
        String at = "tools[0].container.skills[0].";
        return new Sample(InputUnion.SKILL, type, inContainer(withSecret), secretAt == null ? null : at + secretAt, null, null,
                inContainer(withId), null, idAt == null ? null : at + idAt);
    }

    private static String inContainer(String skill) {
        return skill == null ? null : "{'type':'code_interpreter','container':{'type':'auto','skills':[" + skill + "]}}";
    }

    private static String cited(String annotation) {
        return annotation == null ? null
                : "{'type':'message','role':'assistant','content':[{'type':'output_text','text':'see','annotations':[" + annotation + "]}]}";
    }

    private static Sample tool(String type, String withSecret, String secretAt, String withId, Kind idKind, String idAt) {
        return new Sample(InputUnion.TOOL, type, withSecret, secretAt, null, null, withId, idKind, idAt);
    }

    /** A shell tool's environment; {@code secretAt} and {@code idAt} are relative to the environment. */
    private static Sample environment(String type, String withSecret, String secretAt, String withId, Kind idKind, String idAt) {
        String at = "tools[0].environment.";
        return new Sample(InputUnion.SHELL_ENVIRONMENT, type, shell(withSecret), secretAt == null ? null : at + secretAt, null,
                null, shell(withId), idKind, idAt == null ? null : at + idAt);
    }

    private static String shell(String environment) {
        return environment == null ? null : "{'type':'shell','environment':" + environment + "}";
    }

    private static String base64(String text) {
        return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
    }
}
