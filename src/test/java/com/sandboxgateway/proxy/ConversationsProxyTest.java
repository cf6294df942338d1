package com.sandboxgateway.proxy;

import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.delete;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static com.sandboxgateway.support.PlantedSecrets.githubToken;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import com.openai.core.JsonValue;
import com.openai.errors.BadRequestException;
import com.openai.errors.NotFoundException;
import com.openai.models.conversations.ConversationCreateParams;
import com.openai.models.conversations.ConversationUpdateParams;
import com.openai.models.conversations.items.ItemCreateParams;
import com.openai.models.conversations.items.ItemDeleteParams;
import com.openai.models.conversations.items.ItemRetrieveParams;
import com.openai.models.responses.EasyInputMessage;
import com.openai.models.responses.ResponseCreateParams;
import com.openai.models.responses.ResponseInputContent;
import com.openai.models.responses.ResponseInputFile;
import com.openai.models.responses.ResponseInputItem;
import com.sandboxgateway.support.GatewayIntegrationTest;

import tools.jackson.databind.json.JsonMapper;

/**
 * The Conversations API through the gateway: a conversation is its creator's alone, the items a client
 * adds are governed like {@code input}, and {@code conversation} in a response request must be owned.
 */
class ConversationsProxyTest extends GatewayIntegrationTest {

    @Test
    void shouldServeEveryConversationRouteToItsOwnerOnly() {
        String conversation = createdConversation(ALICE_KEY);
        String item = unique("msg_");
        openAi.stubFor(any(urlPathMatching("/v1/conversations/" + conversation)).willReturn(okJson(conversationJson(conversation))));
        openAi.stubFor(get(urlPathMatching("/v1/conversations/" + conversation + "/items")).willReturn(okJson(
                "{\"object\":\"list\",\"data\":[" + messageJson(item) + "],\"first_id\":\"" + item + "\",\"last_id\":\"" + item
                        + "\",\"has_more\":false}")));
        openAi.stubFor(get(urlPathMatching("/v1/conversations/" + conversation + "/items/" + item)).willReturn(okJson(messageJson(item))));
        openAi.stubFor(delete(urlPathMatching("/v1/conversations/" + conversation + "/items/" + item))
                .willReturn(okJson(conversationJson(conversation))));
        var conversations = sdk(ALICE_KEY).conversations();

        assertThat(conversations.retrieve(conversation).id()).isEqualTo(conversation);
        assertThat(conversations.update(ConversationUpdateParams.builder().conversationId(conversation)
                .metadata(ConversationUpdateParams.Metadata.builder().putAdditionalProperty("topic", JsonValue.from("q3")).build())
                .build()).id()).isEqualTo(conversation);
        assertThat(conversations.items().list(conversation).data()).hasSize(1);
        assertThat(conversations.items().retrieve(ItemRetrieveParams.builder().conversationId(conversation).itemId(item).build())
                .isMessage()).isTrue();
        conversations.items().delete(ItemDeleteParams.builder().conversationId(conversation).itemId(item).build());
        openAi.resetRequests();

        for (String other : List.of(CAROL_KEY, BOB_KEY)) {
            var theirs = sdk(other).conversations();
            assertNotFound(() -> theirs.retrieve(conversation));
            assertNotFound(() -> theirs.update(ConversationUpdateParams.builder().conversationId(conversation)
                    .metadata(ConversationUpdateParams.Metadata.builder().build()).build()));
            assertNotFound(() -> theirs.delete(conversation));
            assertNotFound(() -> theirs.items().list(conversation));
            assertNotFound(() -> theirs.items().create(ItemCreateParams.builder().conversationId(conversation)
                    .addItem(userMessage("hi")).build()));
            assertNotFound(() -> theirs.items().retrieve(ItemRetrieveParams.builder().conversationId(conversation).itemId(item).build()));
            assertNotFound(() -> theirs.items().delete(ItemDeleteParams.builder().conversationId(conversation).itemId(item).build()));
        }
        openAi.verify(0, anyRequestedFor(anyUrl()));

        openAi.stubFor(delete(urlEqualTo("/v1/conversations/" + conversation)).willReturn(okJson(
                "{\"id\":\"" + conversation + "\",\"object\":\"conversation.deleted\",\"deleted\":true}")));
        assertThat(conversations.delete(conversation).deleted()).isTrue();
        assertNotFound(() -> conversations.retrieve(conversation));
    }

    @Test
    void shouldGovernTheItemsAClientAddsLikeInput() {
        String conversation = createdConversation(ALICE_KEY);
        String token = githubToken();
        openAi.resetRequests();

        assertThatThrownBy(() -> sdk(ALICE_KEY).conversations().items().create(ItemCreateParams.builder()
                .conversationId(conversation).addItem(userMessage("deploy with " + token)).build()))
                .isInstanceOfSatisfying(BadRequestException.class, e -> {
                    assertThat(e.code()).hasValue("secret_detected");
                    assertThat(e.param()).hasValue("items[0].content");
                    assertThat(e.getMessage()).doesNotContain(token);
                });
        assertThatThrownBy(() -> sdk(ALICE_KEY).conversations().create(ConversationCreateParams.builder()
                .addItem(userMessage("deploy with " + token)).build()))
                .isInstanceOfSatisfying(BadRequestException.class, e -> assertThat(e.code()).hasValue("secret_detected"));
        assertThatThrownBy(() -> sdk(ALICE_KEY).conversations().items().create(ItemCreateParams.builder()
                .conversationId(conversation).addItem(ResponseInputItem.ofMcpCall(ResponseInputItem.McpCall.builder().id("mcp_1")
                        .serverLabel("crm").name("lookup").arguments("{}").build())).build()))
                .isInstanceOfSatisfying(BadRequestException.class, e -> {
                    assertThat(e.code()).hasValue("unsupported_input");
                    assertThat(e.param()).hasValue("items[0]");
                });
        openAi.verify(0, anyRequestedFor(anyUrl()));

        openAi.stubFor(post("/v1/conversations/" + conversation + "/items").willReturn(okJson(
                "{\"object\":\"list\",\"data\":[],\"first_id\":null,\"last_id\":null,\"has_more\":false}")));
        String csv = "data:text/csv;base64," + Base64.getEncoder().encodeToString(
                "id,customer_ssn\n1,123-45-6789\n".getBytes(StandardCharsets.UTF_8));
        sdk(ALICE_KEY).conversations().items().create(ItemCreateParams.builder().conversationId(conversation)
                .addItem(ResponseInputItem.ofMessage(ResponseInputItem.Message.builder().role(ResponseInputItem.Message.Role.USER)
                        .addContent(ResponseInputContent.ofInputFile(ResponseInputFile.builder().filename("c.csv").fileData(csv).build()))
                        .build()))
                .build());
        String sent = JsonMapper.builder().build().readTree(openAi.findAll(postRequestedFor(
                urlEqualTo("/v1/conversations/" + conversation + "/items"))).getFirst().getBodyAsString())
                .at("/items/0/content/0/file_data").asString();
        assertThat(new String(Base64.getDecoder().decode(sent.substring(sent.indexOf(',') + 1)), StandardCharsets.UTF_8))
                .isEqualTo("id\n1\n");
    }

    @Test
    void shouldRefuseAResponseInAnotherUsersConversationAndCountTurnsPerConversation() {
        String bobs = createdConversation(BOB_KEY);
        String alices = createdConversation(ALICE_KEY);
        openAi.resetRequests();

        assertThatThrownBy(() -> sdk(ALICE_KEY).responses().create(ResponseCreateParams.builder().model("gpt-4.1").input("hi")
                .conversation(bobs).build()))
                .isInstanceOfSatisfying(NotFoundException.class, e -> assertThat(e.param()).hasValue("conversation"));
        assertThatThrownBy(() -> sdk(ALICE_KEY).responses().create(ResponseCreateParams.builder().model("gpt-4.1").input("hi")
                .putAdditionalBodyProperty("conversation", JsonValue.from(Map.of("id", bobs))).build()))
                .isInstanceOfSatisfying(NotFoundException.class, e -> assertThat(e.param()).hasValue("conversation.id"));
        openAi.verify(0, anyRequestedFor(anyUrl()));

        openAi.stubFor(post("/v1/responses").willReturn(okJson(completedResponse(unique("resp_"), unique("cntr_")))));
        var answer = sdk(ALICE_KEY).responses().withRawResponse().create(ResponseCreateParams.builder().model("gpt-4.1")
                .input("hi").conversation(alices).build());
        assertThat(answer.headers().values("X-Gateway-Session")).containsExactly(alices);
    }

    @Test
    void shouldLetTheOwnerReferenceTheItemsOfTheirConversationOnly() {
        String conversation = createdConversation(ALICE_KEY);
        String item = unique("msg_");
        openAi.stubFor(get(urlPathMatching("/v1/conversations/" + conversation + "/items")).willReturn(okJson(
                "{\"object\":\"list\",\"data\":[" + messageJson(item) + "],\"first_id\":\"" + item + "\",\"last_id\":\"" + item
                        + "\",\"has_more\":false}")));
        sdk(ALICE_KEY).conversations().items().list(conversation);
        openAi.stubFor(post("/v1/responses").willReturn(okJson(completedResponse(unique("resp_"), unique("cntr_")))));
        ResponseCreateParams reference = ResponseCreateParams.builder().model("gpt-4.1").inputOfResponse(List.of(
                ResponseInputItem.ofItemReference(ResponseInputItem.ItemReference.builder().id(item).build()))).build();

        sdk(ALICE_KEY).responses().create(reference);
        assertThatThrownBy(() -> sdk(BOB_KEY).responses().create(reference))
                .isInstanceOfSatisfying(NotFoundException.class, e -> {
                    assertThat(e.code()).hasValue("not_found");
                    assertThat(e.param()).hasValue("input[0].id");
                });
    }

    private String createdConversation(String key) {
        String id = unique("conv_");
        openAi.stubFor(post("/v1/conversations").willReturn(okJson(conversationJson(id))));
        return sdk(key).conversations().create(ConversationCreateParams.builder().build()).id();
    }

    private static String conversationJson(String id) {
        return "{\"id\":\"" + id + "\",\"object\":\"conversation\",\"created_at\":1741900000,\"metadata\":{}}";
    }

    private static String messageJson(String id) {
        return "{\"type\":\"message\",\"id\":\"" + id + "\",\"status\":\"completed\",\"role\":\"user\","
                + "\"content\":[{\"type\":\"input_text\",\"text\":\"hi\"}]}";
    }

    private static ResponseInputItem userMessage(String text) {
        return ResponseInputItem.ofEasyInputMessage(EasyInputMessage.builder().role(EasyInputMessage.Role.USER).content(text).build());
    }

    private static void assertNotFound(Executable call) {
        assertThatThrownBy(call::execute).isInstanceOfSatisfying(NotFoundException.class,
                e -> assertThat(e.code()).hasValue("not_found"));
    }
}
