import { useState } from 'preact/hooks';
import { type Language, language, setLanguage, t } from './i18n';
import { fieldId } from './ui';

/** The language switch: overrides the browser's language, remembered in this browser. */
export function LanguageSwitch() {
  const [id] = useState(() => fieldId('language'));
  return (
    <span class="language">
      <label for={id} class="visually-hidden">
        {t('language.label')}
      </label>
      <select
        id={id}
        value={language()}
        onChange={(e) => setLanguage(e.currentTarget.value as Language)}
      >
        {/* Each language in its own name, whatever the current one. */}
        <option value="de" lang="de">
          Deutsch
        </option>
        <option value="en" lang="en">
          English
        </option>
      </select>
    </span>
  );
}
