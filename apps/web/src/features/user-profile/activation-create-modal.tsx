import { type ActivationAudience, activationRoutes, type ProfileCustomer } from '@athena/contract';
import { Alert, App, DatePicker, Form, Input, Modal, Radio, Select, Spin, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../lib/api-client.ts';
import { showErrorNotice } from '../../lib/error-notice.ts';
import { useDebouncedValue } from '../../shared/hooks/use-debounced-value.ts';
import {
  refreshActivation,
  useActivationTemplates,
  useAudienceCount,
  useCustomerSearch,
} from './activation-queries.ts';

interface Props {
  open: boolean;
  onClose: () => void;
  spaceId: string | null;
  sceneId: number;
  /** The customer list's current filters: the audience "as filtered". */
  filters: ActivationAudience;
  /** Customers of the list's current page, offered before anything is searched. */
  customers: ProfileCustomer[];
  onCreated: (eventId: string) => void;
}

/**
 * A new activation event: its template, who receives it (the customers the list's filters find,
 * or chosen customers, found with the customer list's search), with how many that is shown before
 * it is confirmed, and when it is sent.
 */
export function ActivationCreateModal({ open, onClose, spaceId, sceneId, filters, customers, onCreated }: Props) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const templates = useActivationTemplates(spaceId, sceneId);
  const [name, setName] = useState('');
  const [templateId, setTemplateId] = useState<string | undefined>(undefined);
  const [kind, setKind] = useState<'filters' | 'chosen'>('filters');
  const [chosen, setChosen] = useState<string[]>([]);
  // Names of the chosen customers, kept while the search shows others.
  const [chosenNames, setChosenNames] = useState<Map<string, string>>(new Map());
  const [typed, setTyped] = useState('');
  const keyword = useDebouncedValue(typed.trim(), 300);
  const found = useCustomerSearch(spaceId, sceneId, keyword, open && kind === 'chosen');
  const [later, setLater] = useState<Dayjs | null>(null);
  const [when, setWhen] = useState<'now' | 'later'>('now');
  const [saving, setSaving] = useState(false);
  const audience = useMemo<ActivationAudience | null>(
    () => (kind === 'filters' ? filters : chosen.length > 0 ? { customer_ids: chosen } : null),
    [kind, filters, chosen],
  );
  const count = useAudienceCount(spaceId, sceneId, open ? audience : null);
  const offered = keyword || found.data ? (found.data ?? []) : customers;
  const customerOptions = useMemo(() => {
    const options = new Map(chosen.map((id) => [id, chosenNames.get(id) ?? id]));
    for (const customer of offered) options.set(customer.id, labelOf(customer));
    return [...options].map(([value, label]) => ({ value, label }));
  }, [chosen, chosenNames, offered]);
  const choose = (ids: string[]) => {
    const names = new Map(chosenNames);
    for (const customer of offered) names.set(customer.id, labelOf(customer));
    setChosenNames(names);
    setChosen(ids);
  };
  // Only an exact count refuses here; an estimate ("about N") leaves it to the server, which reads
  // the customers themselves when the event is created.
  const tooMany = count.data ? !count.data.estimated && count.data.count > count.data.max : false;

  const create = async () => {
    if (!audience || !templateId) return;
    setSaving(true);
    try {
      const event = await api(activationRoutes.eventCreate, {
        name,
        template_id: templateId,
        audience,
        ...(when === 'later' && later ? { send_at: later.valueOf() } : {}),
      });
      void message.success(t('userProfile.activation.create.done'));
      await refreshActivation(spaceId, sceneId);
      onCreated(event.id);
      setName('');
      setChosen([]);
    } catch (error) {
      showErrorNotice(error);
    } finally {
      setSaving(false);
    }
  };

  const countText = () => {
    if (!audience) return t('userProfile.activation.create.chooseSome');
    if (count.isError) return t('userProfile.activation.create.countFailed');
    if (!count.data) return t('userProfile.activation.create.counting');
    const key = count.data.estimated ? 'countEstimated' : 'count';
    return t(`userProfile.activation.create.${key}`, { count: count.data.count });
  };
  const ready =
    name.trim() !== '' &&
    templateId !== undefined &&
    audience !== null &&
    (count.data?.count ?? 0) > 0 &&
    !tooMany &&
    (when === 'now' || later !== null);

  return (
    <Modal
      open={open}
      title={t('userProfile.activation.create.title')}
      onCancel={onClose}
      onOk={() => void create()}
      okText={when === 'now' ? t('userProfile.activation.create.sendNow') : t('userProfile.activation.create.schedule')}
      okButtonProps={{ loading: saving, disabled: !ready, id: 'activation-create-confirm' }}
      destroyOnHidden
      width={560}
    >
      <Form layout="vertical">
        <Form.Item label={t('userProfile.activation.create.name')} required>
          <Input
            value={name}
            maxLength={50}
            onChange={(e) => setName(e.target.value)}
            data-testid="activation-event-name"
          />
        </Form.Item>
        <Form.Item
          label={t('userProfile.activation.create.template')}
          required
          extra={templates.data?.length === 0 ? t('userProfile.activation.create.noTemplates') : undefined}
        >
          <Select
            value={templateId}
            onChange={setTemplateId}
            loading={templates.isPending}
            options={(templates.data ?? []).map((template) => ({
              value: template.id,
              label: `${template.name} · ${t(`userProfile.activation.mode.${template.mode}`)}`,
            }))}
            data-testid="activation-event-template"
          />
        </Form.Item>
        <Form.Item label={t('userProfile.activation.create.audience')}>
          <Radio.Group
            value={kind}
            onChange={(e) => setKind(e.target.value)}
            data-testid="activation-audience-kind"
            options={[
              { value: 'filters', label: t('userProfile.activation.create.byFilters') },
              { value: 'chosen', label: t('userProfile.activation.create.byChoice') },
            ]}
          />
          {kind === 'chosen' ? (
            <Select
              mode="multiple"
              style={{ width: '100%', marginTop: 8 }}
              value={chosen}
              onChange={choose}
              showSearch
              // The server searches (names, remarks, field values); the options are its answer.
              filterOption={false}
              searchValue={typed}
              onSearch={setTyped}
              onBlur={() => setTyped('')}
              notFoundContent={found.isFetching ? <Spin size="small" /> : t('userProfile.activation.create.searchNone')}
              placeholder={t('userProfile.activation.create.choosePlaceholder')}
              options={customerOptions}
              data-testid="activation-event-customers"
            />
          ) : null}
          <Typography.Paragraph style={{ marginTop: 8, marginBottom: 0 }} data-testid="activation-audience-count">
            {countText()}
          </Typography.Paragraph>
          {tooMany && count.data ? (
            <Alert
              type="warning"
              showIcon
              message={t('userProfile.activation.create.tooMany', { max: count.data.max })}
            />
          ) : null}
        </Form.Item>
        <Form.Item label={t('userProfile.activation.create.when')}>
          <Radio.Group
            value={when}
            onChange={(e) => setWhen(e.target.value)}
            options={[
              { value: 'now', label: t('userProfile.activation.create.now') },
              { value: 'later', label: t('userProfile.activation.create.later') },
            ]}
          />
          {when === 'later' ? (
            <DatePicker
              showTime
              style={{ marginTop: 8 }}
              value={later}
              onChange={setLater}
              disabledDate={(day) => day.isBefore(dayjs().startOf('day')) || day.isAfter(dayjs().add(90, 'day'))}
            />
          ) : null}
        </Form.Item>
      </Form>
    </Modal>
  );
}

const labelOf = (customer: ProfileCustomer) => customer.name || customer.source_id;
