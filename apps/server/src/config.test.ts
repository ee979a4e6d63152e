import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';
import { devProvidersIn } from './providers.ts';

describe('configuration', () => {
  it('runs with no settings at all', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ PORT: 3000, SMS_PROVIDER: 'dev', WECHAT_PROVIDER: 'dev' });
    expect(config.PUBLIC_URL).toBe('http://localhost:3000');
    // Unset: the web shows shared links on the browser's own address instead of this default.
    expect(config.PUBLIC_URL_CONFIGURED).toBe(false);
    expect(loadConfig({ PUBLIC_URL: 'https://ai.example.com' }).PUBLIC_URL_CONFIGURED).toBe(true);
    expect(config.SMS_TEST_NUMBERS.size).toBe(0);
  });

  it('parses SMS test numbers', () => {
    const config = loadConfig({ SMS_TEST_NUMBERS: '13800000000:246810, 13900000000:1357' });
    expect([...config.SMS_TEST_NUMBERS]).toEqual([
      ['13800000000', '246810'],
      ['13900000000', '1357'],
    ]);
  });

  it('parses the scenes served by other hosts, and refuses a pair that is not scene=https://host', () => {
    expect(loadConfig({}).SCENE_HOSTS).toEqual({});
    expect(loadConfig({ SCENE_HOSTS: '19=https://xhs.example.com/, 10=http://10.0.0.5:8080' }).SCENE_HOSTS).toEqual({
      19: 'https://xhs.example.com',
      10: 'http://10.0.0.5:8080',
    });
    expect(() => loadConfig({ SCENE_HOSTS: '19:https://xhs.example.com' })).toThrow(ConfigError);
    expect(() => loadConfig({ SCENE_HOSTS: 'x=https://a.example.com' })).toThrow(ConfigError);
  });

  it('has documented abuse limits by default, each one configurable', () => {
    expect(loadConfig({})).toMatchObject({
      SMS_PHONE_MAX_WAIT_SECONDS: 900,
      SMS_DAILY_LIMIT_PER_IP: 50,
      AGENT_API_CALLS_PER_MINUTE: 60,
      SHARE_CHAT_PER_VISITOR: 20,
      SHARE_CHAT_PER_ADDRESS: 60,
      SHARE_CHAT_WINDOW_SECONDS: 600,
      WORKFLOW_WEBHOOK_PER_ADDRESS_PER_MINUTE: 300,
      WORKFLOW_WEBHOOK_PER_HOOK_PER_MINUTE: 60,
    });
    expect(loadConfig({ AGENT_API_CALLS_PER_MINUTE: '5' }).AGENT_API_CALLS_PER_MINUTE).toBe(5);
    // Below the 15-second resend interval the growing wait would be no wait at all.
    const message = messageOf({ SMS_PHONE_MAX_WAIT_SECONDS: '10', SHARE_CHAT_PER_VISITOR: '0' });
    expect(message).toContain('SMS_PHONE_MAX_WAIT_SECONDS');
    expect(message).toContain('SHARE_CHAT_PER_VISITOR');
  });

  const messageOf = (env: Record<string, string>) => {
    try {
      loadConfig(env);
      return '';
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return (error as Error).message;
    }
  };

  it('lists every malformed variable in one clear error', () => {
    const message = messageOf({ PORT: 'eighty', SMS_TEST_NUMBERS: '138:1', LOG_LEVEL: 'loud' });
    expect(message).toContain('PORT');
    expect(message).toContain('LOG_LEVEL');
    expect(message).toContain('"138:1" is not phone:code');
  });

  it('refuses an ffmpeg or ffprobe path that is not an executable file at start', () => {
    expect(loadConfig({ FFMPEG_PATH: process.execPath }).FFMPEG_PATH).toBe(process.execPath);
    expect(messageOf({ FFMPEG_PATH: '/nonexistent/ffmpeg', FFPROBE_PATH: '/tmp' })).toMatch(
      /FFMPEG_PATH.*not an executable file[\s\S]*FFPROBE_PATH.*not an executable file/,
    );
  });

  it('names the settings a real vendor provider needs', () => {
    const message = messageOf({ SMS_PROVIDER: 'aliyun', WECHAT_PROVIDER: 'official' });
    expect(message).toContain('ALIYUN_SMS_ACCESS_KEY_ID: is required when SMS_PROVIDER=aliyun');
    expect(message).toContain('WECHAT_APP_SECRET: is required when WECHAT_PROVIDER=official');
  });

  it('needs Tencent FaceID keys and a rule for REALNAME_PROVIDER=tencent, and defaults to dev', () => {
    expect(loadConfig({})).toMatchObject({
      REALNAME_PROVIDER: 'dev',
      TENCENT_FACEID_ENDPOINT: 'https://faceid.tencentcloudapi.com',
    });
    const message = messageOf({ REALNAME_PROVIDER: 'tencent', TENCENT_SECRET_ID: 'AKIDx' });
    expect(message).toContain('TENCENT_SECRET_KEY: is required when REALNAME_PROVIDER=tencent');
    expect(message).toContain('TENCENT_FACEID_RULE_ID: is required when REALNAME_PROVIDER=tencent');
    expect(message).not.toContain('TENCENT_SECRET_ID:');
    expect(messageOf({ REALNAME_PROVIDER: 'aliyun' })).toContain('REALNAME_PROVIDER');
  });

  it('names the offline stand-ins a configuration runs, which a production start warns about', () => {
    expect(devProvidersIn(loadConfig({}))).toEqual([
      'SMS_PROVIDER=dev',
      'WECHAT_PROVIDER=dev',
      'REALNAME_PROVIDER=dev',
    ]);
    const real = loadConfig({
      SMS_PROVIDER: 'aliyun',
      ALIYUN_SMS_ACCESS_KEY_ID: 'id',
      ALIYUN_SMS_ACCESS_KEY_SECRET: 'secret',
      ALIYUN_SMS_SIGN_NAME: 'Athena',
      ALIYUN_SMS_TEMPLATE_CODE: 'SMS_1',
    });
    expect(devProvidersIn(real)).toEqual(['WECHAT_PROVIDER=dev', 'REALNAME_PROVIDER=dev']);
  });
});
