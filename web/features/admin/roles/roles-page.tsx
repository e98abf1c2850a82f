import { useRef } from 'react';
import { useMediaQuery } from '@mantine/hooks';
import { useAdminTables } from '#web/api/admin/tables.ts';
import { AdminFrame } from '#web/features/admin/admin-frame.tsx';
import { RoleDetails } from './role-details.tsx';
import { RoleList } from './role-list.tsx';
import { useRoleEditor } from './use-role-editor.ts';
import classes from './roles.module.css';

/** Where the list sits beside the card (the card needs the rest of a 992 px screen for the permissions table). */
const SIDE_BY_SIDE = '(min-width: 62em)';

/** /admin/roles (spec 000 §2 Roles page): the role list beside (on phones above) the selected role's card. */
export function RolesPage() {
  const editor = useRoleEditor();
  const tables = useAdminTables();
  const sideBySide = useMediaQuery(SIDE_BY_SIDE, true, { getInitialValueInEffect: false });
  const heading = useRef<HTMLHeadingElement>(null);

  return (
    <AdminFrame title="Roles">
      <div className={classes.layout}>
        <div className={classes.side}>
          <RoleList
            selectedId={editor.selectedId}
            adding={editor.draft?.Id === 0}
            onSelect={(id) => {
              // On phones the card is below the list: the chosen role's card takes the focus (and the view).
              if (editor.select(id) && !sideBySide) heading.current?.focus();
            }}
            onAdd={() => {
              if (editor.add() && !sideBySide) heading.current?.focus();
            }}
            maxHeight={sideBySide ? 'calc(100dvh - 260px)' : '280px'}
          />
        </div>
        <div className={classes.main}>
          <RoleDetails editor={editor} tables={tables.data} headingRef={heading} />
        </div>
      </div>
    </AdminFrame>
  );
}
