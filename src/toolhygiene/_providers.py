"""Layer 1 of redaction: the known formats of provider credentials, as data.

Each family is a placeholder name, the literal prefixes its tokens start with and the
shape of the rest. Written from the published formats of each provider, grouped as the
public secret scanners group their rule families (cloud, version control, chat, AI,
payments, mail, hosting, package registries, observability, secret stores).

The engine looks a family up by the first two characters of a candidate token, so the
cost of a family is paid only where its prefix occurs: adding one costs nothing
elsewhere.
"""

from __future__ import annotations

import re

__all__ = ["FAMILIES", "Family", "by_head"]

_B62 = "A-Za-z0-9"
_URL = "A-Za-z0-9_\\-"

Family = tuple[str, tuple[str, ...], str]
"""(placeholder name, literal prefixes, regex of what follows a prefix)."""

FAMILIES: tuple[Family, ...] = (
    # cloud
    (
        "aws-access-key-id",
        ("AKIA", "ASIA", "ABIA", "ACCA", "AGPA", "AIDA", "AROA", "AIPA", "ANPA", "ANVA", "APKA"),
        "[A-Z0-9]{16}(?![A-Za-z0-9])",
    ),
    ("google-api-key", ("AIza",), f"[{_URL}]{{35}}"),
    ("google-oauth-token", ("ya29.",), f"[{_URL}.]{{20,2048}}"),
    ("google-refresh-token", ("1//0",), f"[{_URL}]{{30,512}}"),
    ("alibaba-access-key-id", ("LTAI",), f"[{_B62}]{{16,24}}(?![A-Za-z0-9])"),
    ("tencent-secret-id", ("AKID",), f"[{_B62}]{{32}}(?![A-Za-z0-9])"),
    ("digitalocean-token", ("dop_v1_", "doo_v1_", "dor_v1_"), "[a-f0-9]{64}"),
    ("databricks-token", ("dapi",), "[a-f0-9]{32}(?:-[0-9])?"),
    ("heroku-token", ("HRKU-",), f"[{_URL}]{{20,128}}"),
    ("flyio-token", ("fo1_", "fm1r_", "fm2_"), f"[{_URL}+/=]{{20,2048}}"),
    ("netlify-token", ("nfp_", "nfc_", "nfo_"), f"[{_B62}]{{36,64}}"),
    ("vercel-token", ("vcp_", "vci_", "vca_", "vcr_", "vck_"), f"[{_B62}]{{24,80}}"),
    ("supabase-token", ("sbp_", "sb_secret_"), f"[{_URL}]{{20,80}}"),
    ("planetscale-token", ("pscale_tkn_", "pscale_pw_", "pscale_oauth_"), f"[{_URL}.]{{32,64}}"),
    ("pulumi-token", ("pul-",), "[a-f0-9]{40}"),
    ("tailscale-key", ("tskey-",), f"[{_URL}]{{20,100}}"),
    # version control and CI
    ("github-token", ("ghp_", "gho_", "ghu_", "ghs_", "ghr_"), f"[{_B62}]{{36,255}}"),
    ("github-token", ("github_pat_",), "[A-Za-z0-9_]{22,255}"),
    (
        "gitlab-token",
        ("glpat-", "gldt-", "glrt-", "glptt-", "glcbt-", "glsoat-", "glft-", "glimt-", "glagent-"),
        f"[{_URL}.]{{20,255}}",
    ),
    ("gitlab-runner-token", ("GR1348941",), f"[{_URL}]{{20,64}}"),
    ("bitbucket-token", ("ATBB",), f"[{_B62}]{{28,64}}"),
    ("atlassian-token", ("ATATT3", "ATCTT3"), f"[{_URL}=]{{40,512}}"),
    ("buildkite-token", ("bkua_",), "[a-f0-9]{40}"),
    ("circleci-token", ("CCIPAT_",), f"[{_URL}]{{20,80}}"),
    # chat and collaboration
    (
        "slack-token",
        ("xoxb-", "xoxp-", "xoxa-", "xoxo-", "xoxs-", "xoxr-", "xoxe-"),
        "[A-Za-z0-9.\\-]{10,255}",
    ),
    ("slack-token", ("xapp-",), "[0-9]-[A-Za-z0-9\\-]{10,255}"),
    (
        "discord-webhook",
        ("discord.com/api/webhooks/", "discordapp.com/api/webhooks/"),
        f"[0-9]{{8,24}}/[{_URL}]{{20,100}}",
    ),
    ("linear-key", ("lin_api_", "lin_oauth_"), f"[{_B62}]{{32,64}}"),
    ("notion-token", ("secret_", "ntn_"), f"[{_B62}]{{40,64}}"),
    ("airtable-token", ("pat",), f"[{_B62}]{{14}}\\.[a-f0-9]{{64}}"),
    ("figma-token", ("figd_", "figu_"), f"[{_URL}]{{30,64}}"),
    # AI and model hubs
    ("anthropic-key", ("sk-ant-",), f"[{_URL}]{{20,512}}"),
    ("openai-key", ("sk-",), f"(?:proj-|svcacct-|admin-|None-)?[{_URL}]{{20,512}}"),
    ("huggingface-token", ("hf_", "api_org_"), f"[{_B62}]{{30,64}}"),
    ("groq-key", ("gsk_",), f"[{_B62}]{{40,64}}"),
    ("replicate-token", ("r8_",), f"[{_B62}]{{30,64}}"),
    ("perplexity-key", ("pplx-",), f"[{_B62}]{{40,64}}"),
    ("xai-key", ("xai-",), f"[{_B62}]{{60,100}}"),
    ("langsmith-key", ("lsv2_pt_", "lsv2_sk_"), "[a-f0-9_]{32,64}"),
    # payments
    ("stripe-key", ("sk_live_", "sk_test_", "rk_live_", "rk_test_"), f"[{_B62}]{{10,256}}"),
    ("stripe-webhook-secret", ("whsec_",), f"[{_B62}+/=]{{16,256}}"),
    # (Square's application id, ``sq0idp-``, is public: ``_identifiers``)
    ("square-token", ("sq0atp-", "sq0csp-", "EAAA"), f"[{_URL}]{{22,128}}"),
    ("braintree-token", ("access_token$production$", "access_token$sandbox$"), "[a-z0-9$]{30,128}"),
    ("razorpay-key", ("rzp_live_", "rzp_test_"), f"[{_B62}]{{14,64}}"),
    ("flutterwave-key", ("FLWSECK-", "FLWSECK_TEST-"), "[a-zA-Z0-9]{20,64}(?:-X)?"),
    ("shopify-token", ("shpat_", "shpss_", "shpca_", "shppa_"), "[a-fA-F0-9]{32}"),
    ("mollie-key", ("live_", "test_"), f"[{_B62}]{{30}}(?![A-Za-z0-9])"),
    ("adyen-key", ("AQE",), f"[{_URL}+/=.]{{60,512}}"),
    ("easypost-key", ("EZAK", "EZTK"), "[a-zA-Z0-9]{54}"),
    ("duffel-token", ("duffel_live_", "duffel_test_"), f"[{_URL}=]{{40,64}}"),
    ("shippo-token", ("shippo_live_", "shippo_test_"), "[a-f0-9]{40}"),
    # mail and messaging services
    ("sendgrid-key", ("SG.",), f"[{_URL}]{{16,32}}\\.[{_URL}]{{30,64}}"),
    ("mailgun-key", ("key-",), "[a-f0-9]{32}"),
    ("brevo-key", ("xkeysib-", "xsmtpsib-"), "[a-f0-9]{64}-[A-Za-z0-9]{16}"),
    ("twilio-key", ("SK",), "[a-f0-9]{32}(?![A-Za-z0-9])"),
    # package registries and artefact stores
    ("npm-token", ("npm_",), f"[{_B62}]{{36}}"),
    ("pypi-token", ("pypi-AgE",), f"[{_URL}]{{50,1024}}"),
    ("rubygems-token", ("rubygems_",), "[a-f0-9]{48}"),
    ("docker-token", ("dckr_pat_", "dckr_oat_"), f"[{_URL}]{{20,255}}"),
    ("nuget-key", ("oy2",), "[a-z0-9]{43}"),
    ("clojars-token", ("CLOJARS_",), "[a-z0-9]{60}"),
    ("jfrog-key", ("AKCp",), f"[{_B62}]{{60,80}}"),
    ("postman-key", ("PMAK-",), "[a-f0-9]{24}-[a-f0-9]{34}"),
    ("readme-key", ("rdme_",), "[a-z0-9]{70}"),
    # observability and secret stores
    ("sentry-token", ("sntrys_", "sntryu_"), f"[{_URL}+/=]{{40,512}}"),
    ("grafana-token", ("glc_", "glsa_"), f"[{_URL}+/=]{{32,512}}"),
    ("newrelic-key", ("NRAK-", "NRJS-", "NRII-"), "[A-Z0-9]{27}"),
    ("dynatrace-token", ("dt0c01.",), "[A-Z0-9]{24}\\.[A-Z0-9]{64}"),
    ("doppler-token", ("dp.pt.", "dp.st.", "dp.ct.", "dp.sa."), f"[{_B62}]{{40,64}}"),
    ("vault-token", ("hvs.", "hvb.", "hvr."), f"[{_URL}]{{24,512}}"),
    ("1password-token", ("ops_eyJ",), f"[{_URL}+/=]{{100,4096}}"),
    ("age-secret-key", ("AGE-SECRET-KEY-1",), "[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}"),
    # Bech32 and Base58 private keys of wallets and signing identities: a Nostr key's
    # ``nsec1`` (32 bytes: 52 characters and a checksum of 6) and BIP32's extended
    # private keys (``xprv`` and the versions of other scripts and of test networks:
    # 78 bytes and a checksum of 4 in Base58, 111 characters). A Lightning invoice
    # (``lnbc1…``), a Nostr public key (``npub1``) and an extended public key (``xpub``)
    # are public: shared to be paid or to be found.
    ("nostr-secret-key", ("nsec1",), "[02-9ac-hj-np-z]{58}(?![0-9a-z])"),
    (
        "extended-private-key",
        ("xprv", "tprv", "yprv", "zprv", "uprv", "vprv", "Yprv", "Zprv", "Uprv", "Vprv"),
        "[1-9A-HJ-NP-Za-km-z]{107}(?![A-Za-z0-9])",
    ),
    ("openshift-token", ("sha256~",), f"[{_URL}]{{43}}"),
    ("prefect-key", ("pnu_",), f"[{_B62}]{{36}}"),
    ("contentful-token", ("CFPAT-",), f"[{_URL}]{{43}}"),
    ("typeform-token", ("tfp_",), f"[{_URL}.]{{40,64}}"),
    ("adafruit-key", ("aio_",), f"[{_B62}]{{28}}"),
    ("infracost-key", ("ico-",), f"[{_B62}]{{32}}"),
    # (a public token, ``pk.eyJ``, is public by design: ``_identifiers``)
    ("mapbox-token", ("sk.eyJ",), f"[{_URL}.]{{40,512}}"),
    ("dropbox-token", ("sl.",), f"[{_URL}=]{{130,1024}}"),
    ("facebook-token", ("EAAC", "EAAG", "EAAB"), f"[{_B62}]{{30,512}}"),
    ("jwt", ("eyJ",), f"[{_URL}]{{8,4096}}\\.eyJ[{_URL}]{{2,8192}}\\.[{_URL}]{{0,4096}}"),
)


def by_head() -> dict[str, list[tuple[str, re.Pattern[str]]]]:
    """Families indexed by the first two characters of their prefixes: the engine checks
    a candidate token only against the families that can start where it starts. Within
    one head, longer prefixes come first (``sk-ant-`` before ``sk-``)."""
    index: dict[str, list[tuple[int, str, re.Pattern[str]]]] = {}
    for name, prefixes, rest in FAMILIES:
        for prefix in prefixes:
            entry = (len(prefix), name, re.compile(re.escape(prefix) + rest))
            index.setdefault(prefix[:2], []).append(entry)
    return {
        head: [(name, pattern) for _, name, pattern in sorted(entries, key=lambda e: -e[0])]
        for head, entries in index.items()
    }
