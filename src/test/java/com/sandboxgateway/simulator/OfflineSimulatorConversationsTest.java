package com.sandboxgateway.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import org.junit.jupiter.api.Test;

import com.openai.core.JsonValue;
import com.openai.errors.NotFoundException;
import com.openai.models.conversations.Conversation;
import com.openai.models.conversations.ConversationCreateParams;
import com.openai.models.conversations.ConversationDeletedResource;
import com.openai.models.conversations.ConversationUpdateParams;
import com.openai.models.conversations.items.ConversationItem;
import com.openai.models.conversations.items.ItemCreateParams;
import com.openai.models.conversations.items.ItemDeleteParams;
import com.openai.models.conversations.items.ItemListParams;
import com.openai.models.conversations.items.ItemRetrieveParams;
import com.openai.models.responses.EasyInputMessage;
import com.openai.models.responses.Response;
import com.openai.models.responses.ResponseConversationParam;
import com.openai.models.responses.ResponseCreateParams;
import com.openai.models.responses.ResponseInputItem;

/** The Conversations API: conversations and their items are kept, and a response in one adds to it. */
class OfflineSimulatorConversationsTest extends SimulatorTest {

    private static ResponseInputItem userMessage(String text) {
        return ResponseInputItem.ofEasyInputMessage(EasyInputMessage.builder().role(EasyInputMessage.Role.USER).content(text).build());
    }

    @Test
    void shouldCreateRetrieveUpdateAndDeleteAConversation() {
        Conversation created = openAi.conversations().create(ConversationCreateParams.builder()
                .metadata(ConversationCreateParams.Metadata.builder().putAdditionalProperty("topic", JsonValue.from("revenue")).build())
                .addItem(userMessage("Hello")).build());

        Conversation retrieved = openAi.conversations().retrieve(created.id());
        Conversation updated = openAi.conversations().update(ConversationUpdateParams.builder().conversationId(created.id())
                .metadata(ConversationUpdateParams.Metadata.builder().putAdditionalProperty("topic", JsonValue.from("costs")).build())
                .build());
        ConversationDeletedResource deleted = openAi.conversations().delete(created.id());

        assertThat(created.id()).startsWith("conv_");
        assertThat(retrieved).isEqualTo(created);
        assertThat(updated._metadata().toString()).contains("costs");
        assertThat(deleted.deleted()).isTrue();
        assertThatThrownBy(() -> openAi.conversations().retrieve(created.id())).isInstanceOf(NotFoundException.class);
    }

    @Test
    void shouldListAddRetrieveAndDeleteItems() {
        String conversation = openAi.conversations().create(ConversationCreateParams.builder().addItem(userMessage("first")).build()).id();

        var added = openAi.conversations().items().create(ItemCreateParams.builder().conversationId(conversation)
                .items(List.of(userMessage("second"), userMessage("third"))).build());
        List<ConversationItem> listed = openAi.conversations().items().list(ItemListParams.builder().conversationId(conversation)
                .order(ItemListParams.Order.ASC).build()).data();

        assertThat(added.data()).hasSize(2);
        assertThat(listed).hasSize(3);
        String secondId = added.data().getFirst().asMessage().id();
        assertThat(openAi.conversations().items().retrieve(ItemRetrieveParams.builder().conversationId(conversation).itemId(secondId)
                .build()).asMessage().content().getFirst().asInputText().text()).isEqualTo("second");
        openAi.conversations().items().delete(ItemDeleteParams.builder().conversationId(conversation).itemId(secondId).build());
        assertThat(openAi.conversations().items().list(conversation).data()).hasSize(2);
    }

    @Test
    void shouldAddAResponsesInputAndOutputToItsConversation() {
        String conversation = openAi.conversations().create(ConversationCreateParams.builder().build()).id();

        Response response = openAi.responses().create(ResponseCreateParams.builder().model("gpt-4.1").input("Plot revenue")
                .conversation(ResponseConversationParam.builder().id(conversation).build())
                .addTool(com.openai.models.responses.Tool.CodeInterpreter.builder().container(
                        com.openai.models.responses.Tool.CodeInterpreter.Container.CodeInterpreterToolAuto.builder().build()).build())
                .build());

        List<ConversationItem> items = openAi.conversations().items().list(ItemListParams.builder().conversationId(conversation)
                .order(ItemListParams.Order.ASC).build()).data();
        assertThat(items).hasSize(1 + response.output().size());
        assertThat(items.getFirst().asMessage().content().getFirst().asInputText().text()).isEqualTo("Plot revenue");
        assertThat(items.get(1).isCodeInterpreterCall()).isTrue();
        assertThatThrownBy(() -> openAi.responses().create(ResponseCreateParams.builder().model("gpt-4.1").input("hi")
                .conversation("conv_doesnotexist").build())).isInstanceOf(NotFoundException.class);
    }
}
