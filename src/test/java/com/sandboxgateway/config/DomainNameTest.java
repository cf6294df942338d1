package com.sandboxgateway.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class DomainNameTest {

    private static final EffectivePolicy POLICY = new EffectivePolicy("analytics",
            List.of(DomainName.parse("pypi.org"), DomainName.parse("files.pythonhosted.org"), DomainName.parse("*.example.com"),
                    DomainName.parse("bücher.example")), Set.of("1g"), 20, Set.of("code_interpreter"),
            new EffectivePolicy.Limits(60, 10, 600, 20, 500, BigDecimal.TEN));

    @ParameterizedTest(name = "{0} is allowed")
    @CsvSource(delimiter = '|', textBlock = """
            pypi.org
            '  PyPI.org  '
            pypi.org.
            files.pythonhosted.org
            ｐｙｐｉ．org
            pypi。org
            api.example.com
            deep.api.example.com
            *.example.com
            bücher.example
            xn--bcher-kva.example
            """)
    void shouldAdmit(String requested) {
        assertThat(POLICY.admits(DomainName.parse(requested))).isTrue();
    }

    @ParameterizedTest(name = "{0} is not in the list")
    @CsvSource(delimiter = '|', textBlock = """
            evil-pypi.org
            pypi.org.evil.net
            example.com
            *.pypi.org
            xn--pypi-org.example
            """)
    void shouldNotAdmit(String requested) {
        assertThat(POLICY.admits(DomainName.parse(requested))).isFalse();
    }

    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(delimiter = '|', textBlock = """
            *                               | wildcard
            *.org                           | not a fully qualified
            127.0.0.1                       | IP address
            2130706433                      | not a fully qualified
            0x7f.1                          | IP address
            0x7f000001.0x1                  | IP address
            [::1]                           | bare host name
            ::1                             | bare host name
            169.254.169.254                 | IP address
            https://pypi.org                | bare host name
            pypi.org:443                    | bare host name
            pypi.org/simple                 | bare host name
            user:secret@pypi.org            | bare host name
            pypi.org\\evil                  | bare host name
            pypi%2eorg                      | bare host name
            a.*.example.com                 | wildcard
            -pypi.org                       | not a valid
            pypі.org                        | homograph
            ''                              | empty
            """)
    void shouldRefuseWhatIsNotAPlainHostName(String entry, String reason) {
        assertThatThrownBy(() -> DomainName.parse(entry == null ? "" : entry))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(reason);
    }

    @Test
    void shouldRefuseOverLongLabelsAndNames() {
        assertThatThrownBy(() -> DomainName.parse("a".repeat(64) + ".org")).hasMessageContaining("63");
        assertThatThrownBy(() -> DomainName.parse(("a".repeat(60) + ".").repeat(5) + "org")).hasMessageContaining("253");
    }
}
