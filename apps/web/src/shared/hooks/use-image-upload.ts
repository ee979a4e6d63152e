import { useEffect, useState } from 'react';
import { currentLocale } from '../../lib/i18n.ts';
import { checkImageFile, type ImageRules, type ImageType, imageUploadErrorText } from '../../lib/image-check.ts';

/**
 * A chosen image, checked here first (`lib/image-check.ts`) and previewed while `send` uploads it;
 * a refusal, before or after sending, is the server's own message in `error`.
 */
export function useImageUpload(rules: ImageRules, send: (file: File, type: ImageType) => Promise<void>) {
  const [preview, setPreview] = useState<string | null>(null);
  const [uploading, setUploading] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => () => void (preview && URL.revokeObjectURL(preview)), [preview]);

  const choose = async (file: File | undefined) => {
    if (!file) return;
    const locale = currentLocale();
    setError(null);
    const check = await checkImageFile(file, rules, locale);
    if (!check.ok) {
      setError(check.message);
      return;
    }
    setPreview(URL.createObjectURL(file));
    setUploading(true);
    try {
      await send(file, check.type);
    } catch (caught) {
      setError(imageUploadErrorText(caught, rules, locale));
    } finally {
      setPreview(null);
      setUploading(false);
    }
  };

  return { preview, uploading, error, setError, choose };
}
