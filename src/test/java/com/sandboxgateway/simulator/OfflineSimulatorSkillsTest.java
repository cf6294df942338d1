package com.sandboxgateway.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.openai.errors.BadRequestException;
import com.openai.errors.NotFoundException;
import com.openai.models.skills.Skill;
import com.openai.models.skills.SkillCreateParams;
import com.openai.models.skills.SkillUpdateParams;
import com.openai.models.skills.versions.SkillVersion;
import com.openai.models.skills.versions.VersionCreateParams;
import com.openai.models.skills.versions.VersionDeleteParams;
import com.openai.models.skills.versions.VersionRetrieveParams;
import com.openai.models.skills.versions.content.ContentRetrieveParams;

/** The Skills API keeps each upload as a version: retrieve, list, default, content and deletes agree with it. */
class OfflineSimulatorSkillsTest extends SimulatorTest {

    private static final String SKILL_MD = "---\nname: csv-insights\ndescription: Summarize a CSV file.\n---\nRun scripts/summarize.py.\n";

    @Test
    void shouldKeepASkillAndItsVersions(@TempDir Path dir) throws IOException {
        byte[] first = zip(SKILL_MD);
        byte[] second = zip(SKILL_MD.replace("Summarize a CSV file.", "Summarize and chart a CSV file."));

        Skill skill = openAi.skills().create(SkillCreateParams.builder().files(Files.write(dir.resolve("s.zip"), first)).build());
        SkillVersion version = openAi.skills().versions().create(skill.id(), VersionCreateParams.builder()
                .files(Files.write(dir.resolve("s2.zip"), second)).build());

        assertThat(skill.id()).startsWith("skill_");
        assertThat(skill.name()).isEqualTo("csv-insights");
        assertThat(skill.defaultVersion()).isEqualTo("1");
        assertThat(version.version()).isEqualTo("2");
        assertThat(version.description()).isEqualTo("Summarize and chart a CSV file.");
        assertThat(openAi.skills().retrieve(skill.id()).latestVersion()).isEqualTo("2");
        assertThat(openAi.skills().list().data()).extracting(Skill::id).contains(skill.id());
        assertThat(openAi.skills().versions().list(skill.id()).data()).extracting(SkillVersion::version).containsExactly("2", "1");
        assertThat(SimulatorClients.bytes(openAi.skills().content().retrieve(skill.id()))).isEqualTo(first);

        openAi.skills().update(skill.id(), SkillUpdateParams.builder().defaultVersion("2").build());

        assertThat(SimulatorClients.bytes(openAi.skills().content().retrieve(skill.id()))).isEqualTo(second);
        assertThat(SimulatorClients.bytes(openAi.skills().versions().content().retrieve("1",
                ContentRetrieveParams.builder().skillId(skill.id()).build()))).isEqualTo(first);
        openAi.skills().versions().delete("1", VersionDeleteParams.builder().skillId(skill.id()).build());
        assertThatThrownBy(() -> openAi.skills().versions().retrieve("1", VersionRetrieveParams.builder().skillId(skill.id()).build()))
                .isInstanceOf(NotFoundException.class);
        assertThat(openAi.skills().delete(skill.id()).deleted()).isTrue();
        assertThatThrownBy(() -> openAi.skills().retrieve(skill.id())).isInstanceOf(NotFoundException.class);
    }

    @Test
    void shouldRefuseASkillWithoutSkillMd(@TempDir Path dir) throws IOException {
        Path bundle = Files.write(dir.resolve("s.zip"), zip(null));

        assertThatThrownBy(() -> openAi.skills().create(SkillCreateParams.builder().files(bundle).build()))
                .isInstanceOfSatisfying(BadRequestException.class, e -> assertThat(e.getMessage()).contains("SKILL.md"));
    }

    /** A skill folder with a script and, unless null, a {@code SKILL.md}. */
    private static byte[] zip(String skillMd) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ZipOutputStream zip = new ZipOutputStream(bytes)) {
            if (skillMd != null) {
                zip.putNextEntry(new ZipEntry("csv-insights/SKILL.md"));
                zip.write(skillMd.getBytes(StandardCharsets.UTF_8));
            }
            zip.putNextEntry(new ZipEntry("csv-insights/scripts/summarize.py"));
            zip.write("print('summary')\n".getBytes(StandardCharsets.UTF_8));
        }
        return bytes.toByteArray();
    }
}
