/** The designated SMS test number the suite's server is started with (SMS_TEST_NUMBERS). */
export const TEST_PHONE = '13800000000';
export const TEST_CODE = '246810';
