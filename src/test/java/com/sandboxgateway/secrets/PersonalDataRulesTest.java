package com.sandboxgateway.secrets;

import static com.sandboxgateway.secrets.Scans.found;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PersonalDataRulesTest {

    private final FakeSecrets fake = new FakeSecrets(4);

    @Test
    void shouldFindEmailAddresses() {
        assertThat(found("write to jane.doe+news@mail.example.co.uk, or call")).containsExactly("email=jane.doe+news@mail.example.co.uk");
        assertThat(found("mailto:info@acme-corp.io")).containsExactly("email=info@acme-corp.io");
        assertThat(found("\"hi\\nbob@foo.org\"")).containsExactly("email=bob@foo.org");
    }

    @Test
    void shouldNotTakeAssetsVersionsDecoratorsOrRemotesForEmail() {
        assertThat(found("<img src=\"icon@2x.png\"> react@18.2.0 @app.route('/') a @ b.T git@github.com:acme/x.git")).isEmpty();
        assertThat(found("image@sha256:0123abcd user@localhost")).isEmpty();
    }

    @Test
    void shouldFindInternationalNorthAmericanAndEuropeanPhoneNumbers() {
        for (String phone : new String[] {"+44 20 7946 0958", "+1 (415) 555-2671", "+33 (0)1 42 68 53 00", "+4915112345678",
                "(415) 555-2671", "415-555-2671", "415.555.2671", "1-800-555-0199", "020 7946 0958", "06 12 34 56 78", "06-12345678"}) {
            assertThat(found("tel " + phone + ".")).as(phone).containsExactly("phone=" + phone);
        }
    }

    /** The phone rule's triggers ask for 10 digits, or 8 after a '+': the shortest number of each shape still runs it. */
    @Test
    void shouldFindTheShortestPhoneNumberOfEachShapeAsAWholeCell() {
        for (String phone : new String[] {"+49301234", "+49 301 234", "415-555-2671", "06 12345678", "06-12-34-56-78"}) {
            assertThat(found(phone)).as(phone).containsExactly("phone=" + phone);
        }
        assertThat(found("10000001")).as("an 8-digit id").isEmpty();
        assertThat(found("2025-04-04")).as("a date").isEmpty();
    }

    @Test
    void shouldNotTakeDatesAmountsIdsOrAddressesForPhoneNumbers() {
        assertThat(found("2024-01-15 10:30:00, 01.02.2024 12:30, 05/12/2023")).isEmpty();
        assertThat(found("1 234 567,89 EUR; $1,234,567.00; 12 500 000")).isEmpty();
        assertThat(found("id 4155552671, order 100234567, ts 1700000000000")).isEmpty();
        assertThat(found("192.168.100.200 and v1.22.333.4444")).isEmpty();
        assertThat(found("123-456-7890 555-123-4567 415-555-2671-99")).as("NANP-invalid or longer numbers").isEmpty();
    }

    @Test
    void shouldFindSsnsButNotNumbersTheSsaNeverIssues() {
        assertThat(found("SSN 123-45-6789.")).containsExactly("us-ssn=123-45-6789");
        assertThat(found("000-12-3456 666-12-3456 900-12-3456 123-00-4567 123-45-0000")).isEmpty();
        assertThat(found("INV-123-45-6789-B 1123-45-6789 123-45-67890")).isEmpty();
    }

    @Test
    void shouldFindLuhnValidCardNumbersOfKnownNetworksSolidOrGrouped() {
        String visa = fake.cardNumber("4", 16);
        String amex = fake.cardNumber("37", 15);
        String mastercard = fake.cardNumber("2221", 16);
        String grouped = visa.substring(0, 4) + " " + visa.substring(4, 8) + " " + visa.substring(8, 12) + " " + visa.substring(12);
        String amexGrouped = amex.substring(0, 4) + "-" + amex.substring(4, 10) + "-" + amex.substring(10);

        assertThat(found("card " + visa)).containsExactly("payment-card=" + visa);
        assertThat(found(grouped + " exp 12/27")).containsExactly("payment-card=" + grouped);
        assertThat(found("12.50," + amexGrouped + ",EUR")).containsExactly("payment-card=" + amexGrouped);
        assertThat(found(mastercard)).containsExactly("payment-card=" + mastercard);
    }

    @Test
    void shouldNotTakeLuhnFailuresUnknownPrefixesWrongLengthsOrDecimalsForCards() {
        String visa = fake.cardNumber("4", 16);
        String wrongCheckDigit = visa.substring(0, 15) + (char) ('0' + (visa.charAt(15) - '0' + 1) % 10);

        assertThat(found(wrongCheckDigit)).isEmpty();
        assertThat(found(fake.cardNumber("1", 16))).as("no network starts with 1").isEmpty();
        assertThat(found(fake.cardNumber("34", 16))).as("Amex is 15 digits").isEmpty();
        assertThat(found("0." + visa)).as("the fraction of a decimal").isEmpty();
        assertThat(found("ID" + visa)).isEmpty();
    }

    @Test
    void shouldFindIbansWithValidChecksumsSolidOrInGroupsOfFour() {
        String german = fake.iban("DE");
        String french = fake.iban("FR");
        String grouped = String.join(" ", french.split("(?<=\\G.{4})"));

        assertThat(found("IBAN " + german)).containsExactly("iban=" + german);
        assertThat(found(grouped + " (BIC BNPAFRPP)")).containsExactly("iban=" + grouped);
        assertThat(found("GB82 WEST 1234 5698 7654 32")).containsExactly("iban=GB82 WEST 1234 5698 7654 32");
    }

    @Test
    void shouldNotTakeBadChecksumsOrWrongLengthsForIbans() {
        String german = fake.iban("DE");
        String badChecksum = german.substring(0, 2) + (german.charAt(2) == '9' ? '0' : (char) (german.charAt(2) + 1)) + german.substring(3);

        assertThat(found(badChecksum)).isEmpty();
        assertThat(found(german + "7")).isEmpty();
        assertThat(found(german.substring(0, 21))).isEmpty();
    }
}
