package com.sandboxgateway.policy.input;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads the pinned official spec ({@code src/test/resources/openai-openapi/openapi.json}) and holds the
 * typed model to it: every member of each union under {@code CreateResponse} is governed or refused by
 * decision, and the model names no member the spec lacks. A new member in a future spec fails here
 * until someone decides on it (and, if governed, adds its sample to {@code GovernedPlacesTest}).
 */
class InputUnionSpecTest {

    /** Where each union sits in the spec: JSON pointers to its oneOf lists, under components/schemas. */
    private static final Map<InputUnion, List<String>> LOCATIONS = new EnumMap<>(Map.of(
            InputUnion.INPUT_ITEM, List.of("/InputItem/oneOf"),
            InputUnion.CONTENT_PART, List.of("/InputContent/oneOf", "/OutputMessageContent/oneOf",
                    "/FunctionAndCustomToolCallOutput/oneOf", "/FunctionCallOutputItemParam/properties/output/oneOf/1/items/oneOf",
                    "/ResponsePromptVariables/anyOf/0/additionalProperties/oneOf"),
            InputUnion.ANNOTATION, List.of("/Annotation/oneOf"),
            InputUnion.CODE_OUTPUT, List.of("/CodeInterpreterToolCall/properties/outputs/anyOf/0/items/oneOf"),
            InputUnion.SKILL, List.of("/CreateContainerBody/properties/skills/items/oneOf",
                    "/ContainerAutoParam/properties/skills/items/oneOf"),
            InputUnion.SHELL_ENVIRONMENT, List.of("/FunctionShellToolParam/properties/environment/anyOf/0/oneOf",
                    "/FunctionShellCallItemParam/properties/environment/anyOf/0/oneOf"),
            InputUnion.TOOL, List.of("/Tool/oneOf")));

    private static JsonNode schemas;

    @BeforeAll
    static void readSpec() throws IOException {
        try (InputStream spec = InputUnionSpecTest.class.getResourceAsStream("/openai-openapi/openapi.json")) {
            schemas = JsonMapper.builder().build().readTree(spec).path("components").path("schemas");
        }
    }

    @ParameterizedTest
    @EnumSource(InputUnion.class)
    void shouldDecideOnEveryMemberOfTheUnionInTheSpec(InputUnion union) {
        Set<String> members = members(union);
        assertThat(members).as("members of the %s union in the spec", union.displayName()).isNotEmpty();

        Set<String> undecided = new TreeSet<>(members);
        undecided.removeAll(union.governed());
        undecided.removeAll(union.refused());
        assertThat(undecided).as("%s types in the spec that are neither governed nor refused: decide in InputUnion",
                union.displayName()).isEmpty();
        assertThat(union.governed()).as("governed %s types are never also refused", union.displayName())
                .noneMatch(union.refused()::contains);
    }

    @ParameterizedTest
    @EnumSource(InputUnion.class)
    void shouldNameOnlyMembersTheSpecHas(InputUnion union) {
        Set<String> decided = new TreeSet<>(union.governed());
        decided.addAll(union.refused());
        decided.removeAll(members(union));
        assertThat(decided).as("%s types in InputUnion that the spec does not have", union.displayName()).isEmpty();
    }

    private static Set<String> members(InputUnion union) {
        Set<String> types = new LinkedHashSet<>();
        for (String location : LOCATIONS.get(union)) {
            JsonNode oneOf = schemas.at(location);
            assertThat(oneOf.isArray()).as("spec location %s", location).isTrue();
            oneOf.forEach(member -> collect(member, types));
        }
        return types;
    }

    /** A member's type names; a member that is itself a union (Item) contributes its members. */
    private static void collect(JsonNode member, Set<String> types) {
        JsonNode schema = member.has("$ref") ? schemas.path(member.path("$ref").asString().replace("#/components/schemas/", ""))
                : member;
        if (!schema.has("properties") && !schema.has("allOf") && schema.has("oneOf")) {
            schema.path("oneOf").forEach(inner -> collect(inner, types));
            return;
        }
        if (schema.path("type").asString("").equals("string")) {
            return; // a plain string alternative (prompt variables), not a typed member
        }
        JsonNode type = typeProperty(schema);
        assertThat(type).as("a type property in %s", member).isNotNull();
        List<JsonNode> alternatives = new ArrayList<>();
        if (type.has("anyOf")) {
            type.path("anyOf").forEach(alternatives::add);
        } else {
            alternatives.add(type);
        }
        for (JsonNode alternative : alternatives) {
            alternative.path("enum").forEach(value -> types.add(value.asString()));
        }
    }

    private static JsonNode typeProperty(JsonNode schema) {
        if (schema.path("properties").has("type")) {
            return schema.path("properties").path("type");
        }
        for (JsonNode part : schema.path("allOf")) {
            JsonNode resolved = part.has("$ref")
                    ? schemas.path(part.path("$ref").asString().replace("#/components/schemas/", "")) : part;
            JsonNode type = typeProperty(resolved);
            if (type != null) {
                return type;
            }
        }
        return null;
    }
}
