import { ERRORS, type MediaGroup, mediaRoutes } from '@athena/contract';
import { useTranslation } from 'react-i18next';
import { api } from '../../lib/api-client.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { GroupNameModal } from '../../shared/ui/group-name-modal.tsx';
import { GroupSideList, type GroupSideListProps } from '../../shared/ui/group-side-list.tsx';
import { refreshMedia } from './media-queries.ts';

type ListProps = Omit<GroupSideListProps<MediaGroup>, 'countOf' | 'may' | 'texts' | 'testId' | 'testIdPrefix'>;

// Every member may create a group; renaming and deleting one is for its creator, the team's
// creator and admins, which the server says per group.
const may = {
  create: true,
  rename: (group: MediaGroup) => group.can_edit,
  delete: (group: MediaGroup) => group.can_edit,
};

/** The media groups beside the libraries, each with its count of libraries. */
export function MediaGroupList(props: ListProps) {
  const { t } = useTranslation();
  return (
    <GroupSideList
      {...props}
      countOf={(group) => group.library_count}
      may={may}
      texts={{
        title: t('media.groups.title'),
        create: t('media.groups.create'),
        all: t('media.groups.all'),
        ungrouped: t('media.groups.ungrouped'),
        empty: t('media.groups.empty'),
        rename: t('media.groups.rename'),
        delete: t('media.groups.delete'),
        actions: (name) => t('media.groups.actions', { name }),
      }}
      testId="media-groups"
      testIdPrefix="media-"
    />
  );
}

/** Creates a media group (group null) or renames one. */
export function MediaGroupModal(props: {
  open: boolean;
  spaceId: string;
  group: MediaGroup | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { group, spaceId } = props;
  return (
    <GroupNameModal
      open={props.open}
      initialName={group?.name ?? ''}
      texts={{
        title: group ? t('media.groups.renameTitle') : t('media.groups.createTitle'),
        ok: group ? t('media.save') : t('media.groups.createOk'),
        cancel: t('media.cancel'),
        label: t('media.groups.name'),
        tooLong: ERRORS.MEDIA_NAME_INVALID.msg[currentLocale()],
      }}
      testIdPrefix="media-"
      save={async (name) => {
        if (group) await api(mediaRoutes.groupRename, { id: group.id, name });
        else await api(mediaRoutes.groupCreate, { name });
        await refreshMedia(spaceId);
      }}
      onClose={props.onClose}
    />
  );
}
