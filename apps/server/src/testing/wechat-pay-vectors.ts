/**
 * Published test vectors of WeChat Pay's official API v3 SDKs (both Apache-2.0), copied verbatim
 * (the Go key's PEM label is "TESTING KEY" upstream, so secret scanners skip it; it is restored on
 * use). Each constant names the file it comes from.
 */

/** wechatpay-apiv3/wechatpay-go, utils/sign_test.go: testAlgorithmPrivateKeyStr (PKCS#8). */
export const goPrivateKeyPem = `-----BEGIN TESTING KEY-----
MIIEvgIBADANBgkqhkiG9w0BAQEFAASCBKgwggSkAgEAAoIBAQDZUJN33V+dSfvd
fL0Mu+39XrZNXFFMQSy1V15FpncHeV47SmV0TzTqZc7hHB0ddqAdDi8Z5k3TKqb7
6sOwYr5TcAfuR6PIPaleyE0/0KrljBum2Isa2Nyq7Dgc3ElBQ6YN4l/a+DpvKaz1
FSKmKrhLNskqokWVSlu4g8OlKlbPXQ9ibII14MZRQrrkTmHYHzfi7GXXM0thAKuR
0HNvyhTHBh4/lrYM3GaMvmWwkwvsMavnOex6+eioZHBOb1/EIZ/LzC6zuHArPpyW
3daGaZ1rtQB1vVzTyERAVVFsXXgBHvfFud3w3ShsJYk8JvMwK2RpJ5/gV0QSARcm
LDRUAlPzAgMBAAECggEBAMc7rDeUaXiWv6bMGbZ3BTXpg1FhdddnWUnYE8HfX/km
OFI7XtBHXcgYFpcjYz4D5787pcsk7ezPidAj58zqenuclmjKnUmT3pfbI5eCA2v4
C9HnbYDrmUPK1ZcADtka4D6ScDccpNYNa1g2TFHzkIrEa6H+q7S3O2fqxY/DRVtN
0JIXalBb8daaqL5QVzSmM2BMVnHy+YITJWIkP2a3pKs9C0W65JGDsnG0wVrHinHF
+cnhFZIbaPEI//DAFMc9NkrWOKVRTEgcCUxCFaHOZVNxDWZD7A2ZfJB2rK6eg//y
gEiFDR2h6mTaDowMB4YF2n2dsIO4/dCG8vPHI20jn4ECgYEA/ZGu6lEMlO0XZnam
AZGtiNgLcCfM/C2ZERZE7QTRPZH1WdK92Al9ndldsswFw4baJrJLCmghjF/iG4zi
hhBvLnOLksnZUfjdumxoHDWXo2QBWbI5QsWIE7AuTiWgWj1I7X4fCXSQf6i+M/y2
6TogQ7d0ANpZFyOkTNMn/tiJvLECgYEA22XqlamG/yfAGWery5KNH2DGlTIyd6xJ
WtJ9j3jU99lZ0bCQ5xhiBbU9ImxCi3zgTsoqLWgA/p00HhNFNoUcTl9ofc0G3zwT
D1y0ZzcnVKxGJdZ6ohW52V0hJStAigtjYAsUgjm7//FH7PiQDBDP1Wa6xSRkDQU/
aSbQxvEE8+MCgYEA3bb8krW7opyM0XL9RHH0oqsFlVO30Oit5lrqebS0oHl3Zsr2
ZGgoBlWBsEzk3UqUhTFwm/DhJLTSJ/TQPRkxnhQ5/mewNhS9C7yua7wQkzVmWN+V
YeUGTvDGDF6qDz12/vJAgSwDDRym8x4NcXD5tTw7mmNRcwIfL22SkysThIECgYAV
BgccoEoXWS/HP2/u6fQr9ZIR6eV8Ij5FPbZacTG3LlS1Cz5XZra95UgebFFUHHtC
EY1JHJY7z8SWvTH8r3Su7eWNaIAoFBGffzqqSVazfm6aYZsOvRY6BfqPHT3p/H1h
Tq6AbBffxrcltgvXnCTORjHPglU0CjSxVs7awW3AEQKBgB5WtaC8VLROM7rkfVIq
+RXqE5vtJfa3e3N7W3RqxKp4zHFAPfr82FK5CX2bppEaxY7SEZVvVInKDc5gKdG/
jWNRBmvvftZhY59PILHO2X5vO4FXh7suEjy6VIh0gsnK36mmRboYIBGsNuDHjXLe
BDa+8mDLkWu5nHEhOxy2JJZl
-----END TESTING KEY-----`.replaceAll('TESTING KEY', 'PRIVATE KEY');

/** wechatpay-apiv3/wechatpay-go, utils/sign_test.go: SHA256-with-RSA of "source" by goPrivateKeyPem. */
export const goSourceSignature =
  'BKyAfU4iMCuvXMXS0Wzam3V/cnxZ+JaqigPM5OhljS2iOT95OO6Fsuml2JkFANJU9K6q9bLlDhPXuoVz+pp4hAm6pHU4ld81' +
  '5U4jsKu1RkyaII+1CYBUYC8TK0XtJ8FwUXXz8vZHh58rrAVN1XwNyvD1vfpxrMT4SL536GLwvpUHlCqIMzoZUguLli/K8V29' +
  'QiOhuH6IEqLNJn8e9b3nwNcQ7be3CzYGpDAKBfDGPCqCv8Rw5zndhlffk2FEA70G4hvMwe51qMN/RAJbknXG23bSlObuTCN7' +
  'Ndj1aJGH6/L+hdwfLpUtJm4QYVazzW7DFD27EpSQEqA8bX9+8m1rLg==';

/**
 * wechatpay-apiv3/wechatpay-go, core/notify/notify_test.go (TestHandler_ParseNotifyRequest): the
 * self-signed platform certificate of goPrivateKeyPem, serial D7CE59D1F522D701, and a notification
 * it signed. (Its resource is sealed with a 16-byte key, AES-128, so only the signature is used.)
 */
export const goCertificatePem = `-----BEGIN CERTIFICATE-----
MIIDVzCCAj+gAwIBAgIJANfOWdH1ItcBMA0GCSqGSIb3DQEBCwUAMEIxCzAJBgNV
BAYTAlhYMRUwEwYDVQQHDAxEZWZhdWx0IENpdHkxHDAaBgNVBAoME0RlZmF1bHQg
Q29tcGFueSBMdGQwHhcNMjEwNDI3MDg1NTIzWhcNMzEwNDI1MDg1NTIzWjBCMQsw
CQYDVQQGEwJYWDEVMBMGA1UEBwwMRGVmYXVsdCBDaXR5MRwwGgYDVQQKDBNEZWZh
dWx0IENvbXBhbnkgTHRkMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA
2VCTd91fnUn73Xy9DLvt/V62TVxRTEEstVdeRaZ3B3leO0pldE806mXO4RwdHXag
HQ4vGeZN0yqm++rDsGK+U3AH7kejyD2pXshNP9Cq5YwbptiLGtjcquw4HNxJQUOm
DeJf2vg6byms9RUipiq4SzbJKqJFlUpbuIPDpSpWz10PYmyCNeDGUUK65E5h2B83
4uxl1zNLYQCrkdBzb8oUxwYeP5a2DNxmjL5lsJML7DGr5znsevnoqGRwTm9fxCGf
y8wus7hwKz6clt3Whmmda7UAdb1c08hEQFVRbF14AR73xbnd8N0obCWJPCbzMCtk
aSef4FdEEgEXJiw0VAJT8wIDAQABo1AwTjAdBgNVHQ4EFgQUT1c7nd/SUO76HSoZ
umNUJv1R5PwwHwYDVR0jBBgwFoAUT1c7nd/SUO76HSoZumNUJv1R5PwwDAYDVR0T
BAUwAwEB/zANBgkqhkiG9w0BAQsFAAOCAQEAfTjxKRQMzNB/U6ZoCUS+BSNfa2Oh
0plMN6ZuzwiVVZwg1jywvv5yv04koS7Pd4i9E4gt9ZBUQXlpq+A3oOCEEHNRR6b2
kyazGRM7s0OP5X21WrbpSmKmU6K7hkfx30yYs08LVs/Q8DIhvaj1FCFeJzUCzYn/
fHMq4tsbKO0dKAeydPM/nrUZBmaYQVKMVOORGLFjFKVO7JV6Kq/R86ouhjEPgJOe
2xulNBUcjicqtZlBdEh/PWCYP2SpGVDclKm8jeo175T3EVAkdKzzmfpxtMmnMlmq
cTJOU9TxuGvNASMtjj7pYIerTx+xgZDXEVBWFW9PjJ0TV06tCRsgSHItgg==
-----END CERTIFICATE-----`;

export const goNotification = {
  headers: {
    'wechatpay-nonce': 'EcZ9Cmy4Xyx1i6RlJQzLcCyEqDa26NBz',
    'wechatpay-timestamp': '1624523846',
    'wechatpay-serial': 'D7CE59D1F522D701',
    'wechatpay-signature':
      'tJHIiIS9eB2hAYstmAmbbD3ZE5LiIm/Ug5tuL4fC0YOFRWIHV39UFIZXC0e9Wl6lBu6sKvkqDkzpqzBsVHyXFlbYZTOQrVdG' +
      '4b6LfTnK4mikv9++ixJMd3vTf2yCqvBkh98zs3Ds5zsYQakzbcwhmw4fMJs4nPLws28H0UW9FjDR//rxELLwXvV1VEA1IBLX' +
      '70xptjL8hrfUjEE8kkry6yNJTHZRU8CAc7qHli2Ng1V1qb9ARbK8A3ThmFmPQvRGrapI/jS2laKKgYUmfdEdkNO6B2Cke5e8' +
      'VTxY406ArAmQ90GAihDwIcb16TQMnzCMBoutnwZKNiKRACrFmtxw2Q==',
  },
  body:
    '{"id":"3119dfba-e649-5eec-ab1e-3412bc4d2e17","create_time":"2021-06-24T16:37:26+08:00",' +
    '"resource_type":"encrypt-resource","event_type":"PAYSCORE.USER_OPEN_SERVICE","summary":"签约成功",' +
    '"resource":{"original_type":"payscore","algorithm":"AEAD_AES_256_GCM","ciphertext":' +
    '"YDS3lKPaC4Y52Gf3uhft5qUBlIa8b428AWTtTauHQfQrRw+X1WpiuHIDy0vo1Vd6VEq67aVyqPdDYMkRVSDaZL3iZt' +
    'tevRMOoPKMifozg6XPWjIZumks/GpT48lI4NizyeaqLBokNebthah3o1H76qSlO9NkDjp9bzmKLEYYH9TEklFUpsvPqOTOcgSLgh21YJXYR' +
    '7dEBXFgRLiNIKRgO5JdXh1hccRUAlyVWxE54PXpnQ==","associated_data":"payscore","nonce":"Kj7QIyUiYx1q"}}',
};

/**
 * wechatpay-apiv3/wechatpay-java, core/src/test/resources/merchant_certificate.pem (serial
 * 5F1C72E2A8931B72A2E13AF8DEE92471EB397115) and, from core/src/test/java/com/wechat/pay/java/core/
 * cipher/RSAVerifierTest.java, its key's signature of "message".
 */
export const javaCertificatePem = `-----BEGIN CERTIFICATE-----
MIIDrTCCApWgAwIBAgIUXxxy4qiTG3Ki4Tr43ukkces5cRUwDQYJKoZIhvcNAQEL
BQAwZjELMAkGA1UEBhMCQ04xEjAQBgNVBAgMCUd1YW5nZG9uZzERMA8GA1UEBwwI
c2hlbnpoZW4xITAfBgNVBAoMGEludGVybmV0IFdpZGdpdHMgUHR5IEx0ZDENMAsG
A1UEAwwEdGVzdDAeFw0yMjA1MTAwMTU3MTBaFw0yNTA1MDkwMTU3MTBaMGYxCzAJ
BgNVBAYTAkNOMRIwEAYDVQQIDAlHdWFuZ2RvbmcxETAPBgNVBAcMCHNoZW56aGVu
MSEwHwYDVQQKDBhJbnRlcm5ldCBXaWRnaXRzIFB0eSBMdGQxDTALBgNVBAMMBHRl
c3QwggEiMA0GCSqGSIb3DQEBAQUAA4IBDwAwggEKAoIBAQCaZzehUwzcxdLgGn/U
NryHLdX0yBvCqD0p92/BdlCIBi0dmzZzrfc+FF0xK70AP9b2+Ry5q+zXUU+dPucJ
mgwABiZ+Lte+4euMxqPCEkdEu9lyiphalpoaOVPbmDNatzq9k5a/P454QRWMdkLU
JZCeoL9bF2Gn/2+wWEw3sL8zFFcOM8Jr1PdOLmAx+h7pf/87jcmXXCm+SZqw5MtI
LKQi9zHWujYdMA0IcYNeQaNl1h/NUnungdIHKaaU+17wCXqTcZsipAGoqfqrHx/s
r30ZszOdHYOvFNiB+rhEldBGSLWwSYE6LFkbP9GdQWKIQCip3E5dLj5ZFkDeOv4H
ekf9AgMBAAGjUzBRMB0GA1UdDgQWBBQQicr3Vq+2NG2ykH0nxQxsct1RtTAfBgNV
HSMEGDAWgBQQicr3Vq+2NG2ykH0nxQxsct1RtTAPBgNVHRMBAf8EBTADAQH/MA0G
CSqGSIb3DQEBCwUAA4IBAQCH//ZlSAbc6xRlwKwwfbHMsVpAfo/p+Y3397Gi4sR8
RbsW6a3ezXhbiSGiJxDnerx9Cmp4K6U+D3Fl0N9K6CDWfwpGNiZvjmCxtM/wb7dM
u+4U0MXJGBcaePj4mtV/+qPxSWDCQ+PR5OcYRQnac9LfrffTuejQx5aw9FcD7egI
SYfgkZ/wgHyQcZyhh8s6DuigpEaVGMLLoWDZGJ3D+rt4kXk9y5+03KBB2vobyl6P
+PDgaYrlNR/UQMnKMdkgWp7bebmrcXte32/6FAwK3SuHZOSkteDtRCYhYfG5SGSr
go1ujfIK1zIFyPkKKnsgTUPJXwdC7LI+ZqJuWTyVTNj6
-----END CERTIFICATE-----`;

export const javaMessageSignature =
  'Rq+5ZpWV6IHTWE1+9gCrYJKguNgbItpMdlIA+PVCPCdUAKNlohZz7CL7Y8xWDIFJjdGnErMj6Z+Q/h9CF5MV+nAVkqDmBR0u' +
  'P5ppsUEzco4ijvKHsvI2ro4boSW6vSfQs3W8I4QSI9a0/NFIgvj83Fv27LIYZf7deaFWmEwd1fpAeJRCyoKyBeJPdsjVx0//' +
  'Lqe6Wze2zVdliLcBvaHCfpd8+rAVGS+FQDeWgHqJ7n/Zy09LmV1/ghs7pO1mdjdD16SHKlysAD3K5hNGUJX/SHrEXEcu1yO1' +
  'AOb/YvOVkjNh8243rcfXNE5L4ph2XS11vS+2aToKYSOcKUagf0LLaw==';

/** wechatpay-apiv3/wechatpay-java, core/src/test/java/com/wechat/pay/java/core/model/TestConfig.java. */
export const javaApiV3Key = 'a7cde1ZJB1kG2e7VfTs3jQzaWizur8Gb';

/** wechatpay-apiv3/wechatpay-java, core/src/test/java/com/wechat/pay/java/core/cipher/AeadAesCipherTest.java. */
export const javaAead = {
  plaintext: 'message',
  associatedData: 'associatedData',
  nonce: 'uluk4a9R25RW',
  ciphertext: 'ulwSiIajGClcvcOYvOQ7+l+0PAbzzwI=',
};

/**
 * wechatpay-apiv3/wechatpay-java, TestConfig.java: DOWNLOAD_CERTIFICATE_RESPONSE's
 * encrypt_certificate, a platform certificate sealed with javaApiV3Key whose serial_no is
 * 5DEA10EF55877E3CF6C33255C2E7DEFFF7E427EC.
 */
export const javaSealedCertificate = {
  associatedData: 'certificate',
  nonce: '14b16c03dc1b',
  serialNo: '5DEA10EF55877E3CF6C33255C2E7DEFFF7E427EC',
  ciphertext:
    'Mr/AxbvY+WL9hKlD5nIa03LOMPpn5f+CWeNxE4ujl0f5gXZ9XLJ9CldkArCOTsbU62XgKnTc3YvRMZQ7wCmE2fzwmAenAySTYsPm' +
    's72JhggPWfdqVxri9YD5wBYKn8Ck0Fc5JIiVw9WlN2oxHBz83mRVsjoTGC5+cX1CdYqKuZ8pkvi0aCJIq07ZC8MHoTowUz+4jYJy' +
    '9XeKqip83Z7BmUYxsePpNM+HtihBqTJIUYXJfX7Col5X0ACsApRoU9l6swfW/kzvqNpDJavhDBGasLrr5822+Fk5nVkcTi53f8Wb' +
    'ue7ODWjJxj1yhRYcxFCvXLtpYNB+Qa1aXtrBSdBdBI2p7o+6Imn+auHLBCzkrZqF/yd+d4vTn4tqHPLUj89XcHsMf96uBo3T/HQV' +
    '8LEDeIO+6YvOK9FrIDYsvp+imN4n/mnF7eJKo9mpN/QqWJiawrFpAmMMxFKBjIdpgMnVUl3Z11RcWKyfOJ3kcmItTWcnZFNyDgR9' +
    'cS0aU6QPlefa3uUW89uzBuHjcFdDl43yU3LE4qZnHLDcDgx4qt0OFCLiy51GXtEpyYs5k99YJBvKK+RyIs4Yc1/smBmClQUhxW+8' +
    'bsPNOcXfDvH2yX4YzESoO4TV0RqiCgnsSd4zIFyJPiMKIGzVHiw6Kg0eGCmB4mGHEEZCQ0eN3SSPO0QVjjtBYfgXDZfVHSaAB8Pj' +
    'WBVNFimoViZZQrwT6Ygo0LU0Dd8+F5aHFYr4OPHPslr3hrgutEYXDTv1vTA6ABJGqknJ9Y2vtyWpy7aIwxc0kQq/1ezjs+RMVL/L' +
    'RpGDnbx1/CGPDjZhYgZypKa55+PDhoaQxqkF3xCLz2DGoNHZYmFqxzAOsAK0vJZw4VcAk6ssbA6YIaMuiemEpxfLC9ZiXtRqsX9s' +
    '+GWjjtA8JywOFMO+NKZm9BH/E5YNg2DDD3sHG9Mciwn7yJ6sdf8h2lAWlEExAOeiBNyshOHAQ0/S+x1ncWNiqY+Uh5n0rtonvePV' +
    '2MsxVlEWR3AVHn1abcEWkzivd+G5kg7LYO0goqzGClcQfnFfZdO6KwcMXsBCnm9A1Bl4+k5LLokTIYH5/36SRIZ9j0CHGD77BQLE' +
    '7x8AlNsoFS2m263tLLq78TFqvZUTIZIQcVIl+NInscS3xQbA38qqFqutCWIwoF1azuJ7woiJyMvnS3xzIpNzP+rzJ8VDXxjLjpEU' +
    'BOC9WDs74+QMtsAdmh6g0KDclHEk8WJ4P2bnso4z3VCGoDT5X/0bS1C+jMZMKaOCNB21FZ08qgUHmKeDeg8ylENu+mh2Y/AaEDSG' +
    'kGBHIfFbhMYO3uRxhk9hldiHEnHgdkXiVAAUWk/IhtmGijibO/L76vB74Xpes973uK+2iFKgNBk8qTLLZZnuWbcMQuA6VsFULRb/' +
    'C+q9B21YuAWPMzvgBwr4EX2m/OpF5w8Q0HL7v1H5H0mIGJbrjnklUPoBYrw30W3uk7yF0KE6sfMukafFx0S9rBOL0RykGDPwC0lH' +
    'SNySkXDeM5XvDJ+dtHK+RDwhJR+azfrWAHGMtZcQ+YVamjWVmHxXM03j3GeCXgqae1upwHzkPL5OwojcQ5MQi3Kv/1xtwY0cRN/y' +
    'eZTOsXfujtqhkJj/Vltby4lnW4SCj4LjWQF19BY6zhzF4yybBA8bhhtoNP/zx8QkhHAkIROkK2ZVgfocCAPvfQ+vSrsIBO+L5cmg' +
    '6mzFn4g84lsHscgXnszIlzUrzx/4Tam0uwuS9J1gddZ0I0QUt9SJzfsoBCTU0OgNMUtXKS5HvgXe7abexMtFH5eulOsAuFZkQ5LY' +
    'Ja/m4yHFInXzL/t3hjdTi2NmxUufvYzwIyffRTu5vS9vjscARD9lUQDHFQ/xgWe1i8EkRlrSfjlXt00+4//h2bcJKyTBT3IXwvKN' +
    'suY29V9/vU3HkvWKZ99zpSlmcZRuBa1BHbyPEvc0NlqIIoKidxqUvOR64MzudHhAjgWFP+IXojfhS3Gj9OJhBL7s',
};
